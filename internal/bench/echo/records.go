package echo

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// recorded is one resource instance or data source of the recorded state.
type recorded struct {
	value tftypes.Value
	// identity is what the CLI recorded (Terraform and OpenTofu 1.12+); nil otherwise.
	identity *tfprotov6.ResourceIdentityData
}

// recordedType is the recorded instances of one type, indexed lazily by key shape.
type recordedType struct {
	*compiledType
	position map[string]int // of each of KeyNames
	mu       sync.Mutex
	byShape  map[string]map[string]int // shape -> key -> first instance with it
}

// find is the first recorded instance whose values of names have the canonical form key.
// The first call for a shape indexes every instance by it (joining the compiled canonical
// forms); later ones are a map lookup.
func (t *recordedType) find(shape string, names []string, key string) (compiledInstance, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	index, ok := t.byShape[shape]
	if !ok {
		index = t.index(names)
		if t.byShape == nil {
			t.byShape = map[string]map[string]int{}
		}
		t.byShape[shape] = index
	}
	i, ok := index[key]
	if !ok {
		return compiledInstance{}, false
	}
	return t.Instances[i], true
}

// index maps each instance's key of names (as keyOf writes it) to the instance.
func (t *recordedType) index(names []string) map[string]int {
	positions := make([]int, len(names))
	for i, name := range names {
		p, ok := t.position[name]
		if !ok {
			return map[string]int{} // an attribute no instance can be matched on
		}
		positions[i] = p
	}
	index := make(map[string]int, len(t.Instances))
	var b strings.Builder
	for i, inst := range t.Instances {
		b.Reset()
		for j, name := range names {
			b.WriteString(name)
			b.WriteByte('=')
			b.WriteString(inst.Keys[positions[j]])
			b.WriteByte(';')
		}
		if _, dup := index[b.String()]; !dup {
			index[b.String()] = i
		}
	}
	return index
}

// records is the recorded state, read once, when first needed.
type records struct {
	once          sync.Once
	read          func() ([]byte, error)
	err           error
	managed, data map[string]*recordedType
}

// get loads the records on first use: Compile's output, or `show -json`'s compiled here.
func (r *records) get(s *schemas) (*records, error) {
	r.once.Do(func() {
		data, err := r.read()
		if err != nil {
			r.err = fmt.Errorf("recorded state: %w", err)
			return
		}
		var c *compiled
		if isCompiled(data) {
			c, err = decodeCompiled(data)
		} else {
			c, err = compileState(s, data)
		}
		if err != nil {
			r.err = err
			return
		}
		r.managed, r.data = byType(c.Managed), byType(c.Data)
	})
	return r, r.err
}

func byType(m map[string]*compiledType) map[string]*recordedType {
	out := make(map[string]*recordedType, len(m))
	for name, t := range m {
		rt := &recordedType{compiledType: t, position: make(map[string]int, len(t.KeyNames))}
		for i, n := range t.KeyNames {
			rt.position[n] = i
		}
		out[name] = rt
	}
	return out
}

// lookup finds the recorded instance of typeName (in the managed or data records) that
// config's key names, and decodes it as typ. known is false when the key has unknown
// values (nothing is looked up); shape names the key's attributes, for messages.
func (r *records) lookup(managed bool, typeName string, typ tftypes.Type, candidates []string, config map[string]tftypes.Value) (rec recorded, found, known bool, shape string, err error) {
	names, shape, key, known := configKey(candidates, config)
	if !known {
		return recorded{}, false, false, shape, nil
	}
	byType := r.data
	if managed {
		byType = r.managed
	}
	t := byType[typeName]
	if t == nil {
		return recorded{}, false, true, shape, nil
	}
	inst, found := t.find(shape, names, key)
	if !found {
		return recorded{}, false, true, shape, nil
	}
	if rec.value, err = (&tfprotov6.DynamicValue{MsgPack: inst.Value}).Unmarshal(typ); err != nil {
		return recorded{}, false, true, shape, fmt.Errorf("recorded %s: %w", typeName, err)
	}
	if inst.Identity != nil {
		rec.identity = &tfprotov6.ResourceIdentityData{IdentityData: &tfprotov6.DynamicValue{MsgPack: inst.Identity}}
	}
	return rec, true, true, shape, nil
}

func identityData(typ tftypes.Type, v tftypes.Value) (*tfprotov6.ResourceIdentityData, error) {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}, nil
}
