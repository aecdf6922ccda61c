package echo

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// A recorded state compiled (Compile) holds what the echo floor answers with, ready to
// serve: each object's msgpack and the canonical form of the attributes a request may
// be matched on. Decoding `show -json` into values takes seconds at thousands of objects
// (tftypes' JSON decoding), once per provider process; loading its compiled form takes
// milliseconds, and each request then decodes only the object it answers with.
type (
	compiled struct {
		Managed, Data map[string]*compiledType
	}
	compiledType struct {
		KeyNames  []string // the attributes instances may be matched on (keyNames), sorted
		Instances []compiledInstance
	}
	compiledInstance struct {
		Keys     []string // the canonical form of each of KeyNames' values
		Value    []byte   // the object, msgpack
		Identity []byte   // the identity, msgpack; nil when the CLI recorded none
	}
)

// Compile compiles the state `show -json` printed (stateJSON) with the schemas of
// provider in `providers schema -json`'s output (schemaJSON), for New.
func Compile(schemaJSON []byte, provider string, stateJSON []byte) ([]byte, error) {
	s, err := parseSchemas(schemaJSON, provider)
	if err != nil {
		return nil, err
	}
	c, err := compileState(s, stateJSON)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// isCompiled tells Compile's output from `show -json`'s, which is a JSON object.
func isCompiled(data []byte) bool {
	trimmed := bytes.TrimSpace(data)
	return len(trimmed) > 0 && trimmed[0] != '{'
}

func decodeCompiled(data []byte) (*compiled, error) {
	var c compiled
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		return nil, fmt.Errorf("compiled records: %w", err)
	}
	return &c, nil
}

// The JSON of `show -json` (only what the echo floor uses).
type (
	showJSON struct {
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

func compileState(s *schemas, stateJSON []byte) (*compiled, error) {
	var doc showJSON
	if err := json.Unmarshal(stateJSON, &doc); err != nil {
		return nil, fmt.Errorf("recorded state: %w", err)
	}
	c := &compiled{Managed: map[string]*compiledType{}, Data: map[string]*compiledType{}}
	if doc.Values == nil {
		return c, nil // an empty state
	}
	var walk func(m moduleJSON) error
	walk = func(m moduleJSON) error {
		for _, res := range m.Resources {
			if err := c.add(s, res); err != nil {
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
	return c, walk(doc.Values.RootModule)
}

// add compiles one object; those of types the schemas lack (another provider's) are skipped.
func (c *compiled) add(s *schemas, res resourceJSON) error {
	schemas, types, into := s.resources, s.resourceTypes, c.Managed
	if res.Mode == "data" {
		schemas, types, into = s.dataSources, s.dataSourceTypes, c.Data
	}
	typ, ok := types[res.Type]
	if !ok {
		return nil
	}
	value, err := tfprotov6.RawState{JSON: res.Values}.Unmarshal(typ)
	if err != nil {
		return fmt.Errorf("recorded state: %s: %w", res.Type, err)
	}
	t := into[res.Type]
	if t == nil {
		t = &compiledType{KeyNames: keyNames(schemas[res.Type].Block, s.identities[res.Type])}
		into[res.Type] = t
	}
	inst := compiledInstance{Keys: make([]string, len(t.KeyNames))}
	attrs := fields(value)
	for i, name := range t.KeyNames {
		var b strings.Builder
		if canonical(&b, attrs[name]) {
			inst.Keys[i] = b.String()
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, value)
	if err != nil {
		return fmt.Errorf("recorded state: %s: %w", res.Type, err)
	}
	inst.Value = dv.MsgPack
	if idType, ok := s.identityTypes[res.Type]; ok && len(res.Identity) > 0 && res.Mode != "data" {
		id, err := tfprotov6.RawState{JSON: res.Identity}.Unmarshal(idType)
		if err != nil {
			return fmt.Errorf("recorded state: identity of %s: %w", res.Type, err)
		}
		idv, err := tfprotov6.NewDynamicValue(idType, id)
		if err != nil {
			return fmt.Errorf("recorded state: identity of %s: %w", res.Type, err)
		}
		inst.Identity = idv.MsgPack
	}
	t.Instances = append(t.Instances, inst)
	return nil
}

// keyNames are the attributes an instance may be matched on: those a configuration may set
// (keyAttributes), and those an import names (`id`, the identity's).
func keyNames(block *tfprotov6.SchemaBlock, identity *tfprotov6.ResourceIdentitySchema) []string {
	names := keyAttributes(block)
	wanted := map[string]bool{"id": true}
	if identity != nil {
		for _, a := range identity.IdentityAttributes {
			wanted[a.Name] = true
		}
	}
	for _, a := range block.Attributes {
		if wanted[a.Name] && a.NestedType == nil && !slices.Contains(names, a.Name) {
			names = append(names, a.Name)
		}
	}
	slices.Sort(names)
	return names
}
