package astra

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// One mechanism keeps the JSON members a struct does not model, so an update can send back
// what it read, unchanged. Each resource type wires it in with two one-line methods:
//
//	func (c *Cluster) UnmarshalJSON(b []byte) error { type plain Cluster; return decodeKeepingExtra(b, (*plain)(c), &c.Extra) }
//	func (c Cluster) MarshalJSON() ([]byte, error)  { type plain Cluster; return encodeWithExtra(plain(c), c.Extra) }
//
// The local "plain" type has the same fields but none of the methods, which avoids recursion.

// decodeKeepingExtra decodes an object member by member into dst (a pointer to a struct).
// Members without a matching field go to *extra. A member whose value does not fit its
// field's type (a number where a string was expected, say) is kept in *extra as well and
// the field stays zero: one odd value must not make a whole object unreadable, and the
// raw member still travels back on update.
func decodeKeepingExtra(data []byte, dst any, extra *map[string]json.RawMessage) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return err
	}
	v := reflect.ValueOf(dst).Elem()
	fields := jsonFieldsOf(v.Type())
	var kept map[string]json.RawMessage
	keep := func(name string, raw json.RawMessage) {
		if kept == nil {
			kept = map[string]json.RawMessage{}
		}
		kept[name] = raw
	}
	for name, raw := range members {
		f, ok := fields.lookup(name)
		if !ok {
			keep(name, raw)
			continue
		}
		fv := v.FieldByIndex(f.index)
		if err := json.Unmarshal(raw, fv.Addr().Interface()); err != nil {
			fv.Set(reflect.Zero(fv.Type()))
			keep(name, raw)
		}
	}
	*extra = kept
	return nil
}

// encodeWithExtra encodes known (a struct value) and adds the extra members it did not
// encode. A known field that was encoded always wins; a zero one (omitted) lets a kept raw
// member of the same name through, which is how an ill-typed value travels back unchanged.
// Members come out in sorted order.
func encodeWithExtra(known any, extra map[string]json.RawMessage) ([]byte, error) {
	body, err := json.Marshal(known)
	if err != nil || len(extra) == 0 {
		return body, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return nil, err
	}
	for name, raw := range extra {
		if _, present := members[name]; present {
			continue
		}
		if !json.Valid(raw) {
			return nil, fmt.Errorf("astra: kept member %q is not valid JSON", name)
		}
		members[name] = raw
	}
	return json.Marshal(members)
}

type jsonField struct {
	name  string
	index []int
}

type jsonFields struct {
	byName map[string]jsonField
	list   []jsonField
}

// lookup matches a member to a field as encoding/json does: exact name first, then
// case-insensitively.
func (fs jsonFields) lookup(name string) (jsonField, bool) {
	if f, ok := fs.byName[name]; ok {
		return f, true
	}
	for _, f := range fs.list {
		if strings.EqualFold(f.name, name) {
			return f, true
		}
	}
	return jsonField{}, false
}

var fieldCache sync.Map // reflect.Type -> jsonFields

// jsonFieldsOf lists the JSON member names of a struct's exported, non-ignored fields,
// looking into embedded structs without a tag as encoding/json does (ClusterStatus).
func jsonFieldsOf(t reflect.Type) jsonFields {
	if cached, ok := fieldCache.Load(t); ok {
		if fs, ok := cached.(jsonFields); ok {
			return fs
		}
	}
	fs := jsonFields{byName: map[string]jsonField{}}
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			index := append(append([]int{}, prefix...), i)
			tag := sf.Tag.Get("json")
			if sf.Anonymous && tag == "" && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, index)
				continue
			}
			if !sf.IsExported() || tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if name == "" {
				name = sf.Name
			}
			f := jsonField{name: name, index: index}
			fs.byName[name] = f
			fs.list = append(fs.list, f)
		}
	}
	walk(t, nil)
	fieldCache.Store(t, fs)
	return fs
}
