package echo

import (
	"encoding/json"
	"fmt"
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
	instances []recorded
	mu        sync.Mutex
	byShape   map[string]map[string]int // shape -> key -> first instance with it
}

// find is the first recorded instance whose values of names have the canonical form key.
// The first call for a shape indexes every instance by it; later ones are a map lookup.
func (t *recordedType) find(shape string, names []string, key string) (recorded, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	index, ok := t.byShape[shape]
	if !ok {
		index = make(map[string]int, len(t.instances))
		for i, r := range t.instances {
			var obj map[string]tftypes.Value
			if r.value.As(&obj) != nil {
				continue
			}
			if k, known := keyOf(names, obj); known {
				if _, dup := index[k]; !dup {
					index[k] = i
				}
			}
		}
		if t.byShape == nil {
			t.byShape = map[string]map[string]int{}
		}
		t.byShape[shape] = index
	}
	i, ok := index[key]
	if !ok {
		return recorded{}, false
	}
	return t.instances[i], true
}

// records is the recorded state, read once, when first needed.
type records struct {
	once          sync.Once
	read          func() ([]byte, error)
	err           error
	managed, data map[string]*recordedType
}

// The JSON of `show -json` (only what the echo floor uses).
type (
	stateJSON struct {
		Values *struct {
			RootModule moduleJSON `json:"root_module"`
		} `json:"values"`
	}
	moduleJSON struct {
		Resources    []resourceJSON `json:"resources"`
		ChildModules []moduleJSON   `json:"child_modules"`
	}
	resourceJSON struct {
		Mode     string          `json:"mode"`
		Type     string          `json:"type"`
		Values   json.RawMessage `json:"values"`
		Identity json.RawMessage `json:"identity"`
	}
)

// get loads the records on first use.
func (r *records) get(s *schemas) (*records, error) {
	r.once.Do(func() { r.err = r.load(s) })
	return r, r.err
}

func (r *records) load(s *schemas) error {
	data, err := r.read()
	if err != nil {
		return fmt.Errorf("recorded state: %w", err)
	}
	var doc stateJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("recorded state: %w", err)
	}
	r.managed, r.data = map[string]*recordedType{}, map[string]*recordedType{}
	if doc.Values == nil {
		return nil // an empty state
	}
	var walk func(m moduleJSON) error
	walk = func(m moduleJSON) error {
		for _, res := range m.Resources {
			if err := r.add(s, res); err != nil {
				return err
			}
		}
		for _, child := range m.ChildModules {
			if err := walk(child); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(doc.Values.RootModule)
}

// add records one instance; those of types the schemas lack (another provider's) are skipped.
func (r *records) add(s *schemas, res resourceJSON) error {
	types, into := s.resourceTypes, r.managed
	if res.Mode == "data" {
		types, into = s.dataSourceTypes, r.data
	}
	typ, ok := types[res.Type]
	if !ok {
		return nil
	}
	value, err := tfprotov6.RawState{JSON: res.Values}.Unmarshal(typ)
	if err != nil {
		return fmt.Errorf("recorded state: %s: %w", res.Type, err)
	}
	rec := recorded{value: value}
	if idType, ok := s.identityTypes[res.Type]; ok && len(res.Identity) > 0 && res.Mode != "data" {
		id, err := tfprotov6.RawState{JSON: res.Identity}.Unmarshal(idType)
		if err != nil {
			return fmt.Errorf("recorded state: identity of %s: %w", res.Type, err)
		}
		if rec.identity, err = identityData(idType, id); err != nil {
			return err
		}
	}
	if into[res.Type] == nil {
		into[res.Type] = &recordedType{}
	}
	into[res.Type].instances = append(into[res.Type].instances, rec)
	return nil
}

// lookup finds the recorded instance of typeName (in the managed or data records) that
// config's key names. known is false when the key has unknown values (nothing is looked
// up); shape names the key's attributes, for messages.
func (r *records) lookup(managed bool, typeName string, candidates []string, config map[string]tftypes.Value) (rec recorded, found, known bool, shape string) {
	names, shape, key, known := configKey(candidates, config)
	if !known {
		return recorded{}, false, false, shape
	}
	byType := r.data
	if managed {
		byType = r.managed
	}
	t := byType[typeName]
	if t == nil {
		return recorded{}, false, true, shape
	}
	rec, found = t.find(shape, names, key)
	return rec, found, true, shape
}

func identityData(typ tftypes.Type, v tftypes.Value) (*tfprotov6.ResourceIdentityData, error) {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}, nil
}
