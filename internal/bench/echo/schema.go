package echo

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// schemas are one provider's schemas, converted from `providers schema -json`.
type schemas struct {
	provider      *tfprotov6.Schema
	resources     map[string]*tfprotov6.Schema
	dataSources   map[string]*tfprotov6.Schema
	ephemerals    map[string]*tfprotov6.Schema
	listResources map[string]*tfprotov6.Schema
	identities    map[string]*tfprotov6.ResourceIdentitySchema
	actions       map[string]*tfprotov6.ActionSchema
	// The value types of the above, worked out once.
	resourceTypes, dataSourceTypes, identityTypes map[string]tftypes.Type
}

// The JSON of `providers schema -json` (the same shape as terraform-json's, whose types
// would need converting from cty's anyway).
type (
	schemasJSON struct {
		ProviderSchemas map[string]providerJSON `json:"provider_schemas"`
	}
	providerJSON struct {
		Provider                 *schemaJSON                    `json:"provider"`
		ResourceSchemas          map[string]*schemaJSON         `json:"resource_schemas"`
		DataSourceSchemas        map[string]*schemaJSON         `json:"data_source_schemas"`
		EphemeralResourceSchemas map[string]*schemaJSON         `json:"ephemeral_resource_schemas"`
		ListResourceSchemas      map[string]*schemaJSON         `json:"list_resource_schemas"`
		ResourceIdentitySchemas  map[string]*identitySchemaJSON `json:"resource_identity_schemas"`
		Functions                map[string]json.RawMessage     `json:"functions"`
		ActionSchemas            map[string]*actionSchemaJSON   `json:"action_schemas"`
		StateStoreSchemas        map[string]json.RawMessage     `json:"state_store_schemas"`
	}
	schemaJSON struct {
		Version int64      `json:"version"`
		Block   *blockJSON `json:"block"`
	}
	blockJSON struct {
		Attributes      map[string]*attributeJSON `json:"attributes"`
		BlockTypes      map[string]*blockTypeJSON `json:"block_types"`
		Description     string                    `json:"description"`
		DescriptionKind string                    `json:"description_kind"`
		Deprecated      bool                      `json:"deprecated"`
	}
	attributeJSON struct {
		Type            json.RawMessage `json:"type"`
		NestedType      *nestedTypeJSON `json:"nested_type"`
		Description     string          `json:"description"`
		DescriptionKind string          `json:"description_kind"`
		Deprecated      bool            `json:"deprecated"`
		Required        bool            `json:"required"`
		Optional        bool            `json:"optional"`
		Computed        bool            `json:"computed"`
		Sensitive       bool            `json:"sensitive"`
		WriteOnly       bool            `json:"write_only"`
	}
	nestedTypeJSON struct {
		Attributes  map[string]*attributeJSON `json:"attributes"`
		NestingMode string                    `json:"nesting_mode"`
	}
	blockTypeJSON struct {
		NestingMode string     `json:"nesting_mode"`
		Block       *blockJSON `json:"block"`
		MinItems    int64      `json:"min_items"`
		MaxItems    int64      `json:"max_items"`
	}
	// An action's schema has no version (Terraform's command/jsonprovider ActionSchema).
	actionSchemaJSON struct {
		Block *blockJSON `json:"block"`
	}
	identitySchemaJSON struct {
		Version    int64                             `json:"version"`
		Attributes map[string]*identityAttributeJSON `json:"attributes"`
	}
	identityAttributeJSON struct {
		Type              json.RawMessage `json:"type"`
		Description       string          `json:"description"`
		RequiredForImport bool            `json:"required_for_import"`
		OptionalForImport bool            `json:"optional_for_import"`
	}
)

// parseSchemas reads the schemas of provider (its address as the JSON keys it, e.g.
// "registry.terraform.io/astra-control/astra") from `providers schema -json`'s output; an
// empty provider means the only one there.
func parseSchemas(data []byte, provider string) (*schemas, error) {
	var doc schemasJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("provider schemas: %w", err)
	}
	if provider == "" {
		if len(doc.ProviderSchemas) != 1 {
			return nil, fmt.Errorf("provider schemas: %d providers; name one", len(doc.ProviderSchemas))
		}
		for address := range doc.ProviderSchemas {
			provider = address
		}
	}
	p, ok := doc.ProviderSchemas[provider]
	if !ok {
		return nil, fmt.Errorf("provider schemas: no provider %q", provider)
	}
	// Refused rather than left out: a configuration using them would fail in a confusing way.
	if len(p.Functions)+len(p.StateStoreSchemas) > 0 {
		return nil, fmt.Errorf("provider schemas: %s has functions or state stores, which the echo floor does not serve", provider)
	}
	s := &schemas{identities: map[string]*tfprotov6.ResourceIdentitySchema{}, identityTypes: map[string]tftypes.Type{},
		actions: map[string]*tfprotov6.ActionSchema{}}
	var err error
	if s.provider, err = convertSchema(p.Provider); err != nil {
		return nil, fmt.Errorf("provider schema: %w", err)
	}
	for _, kind := range []struct {
		from map[string]*schemaJSON
		to   *map[string]*tfprotov6.Schema
	}{
		{p.ResourceSchemas, &s.resources}, {p.DataSourceSchemas, &s.dataSources},
		{p.EphemeralResourceSchemas, &s.ephemerals}, {p.ListResourceSchemas, &s.listResources},
	} {
		*kind.to = map[string]*tfprotov6.Schema{}
		for name, js := range kind.from {
			if (*kind.to)[name], err = convertSchema(js); err != nil {
				return nil, fmt.Errorf("schema of %s: %w", name, err)
			}
		}
	}
	for name, js := range p.ActionSchemas {
		var block *blockJSON
		if js != nil {
			block = js.Block
		}
		a, err := convertSchema(&schemaJSON{Block: block})
		if err != nil {
			return nil, fmt.Errorf("schema of action %s: %w", name, err)
		}
		s.actions[name] = &tfprotov6.ActionSchema{Schema: a}
	}
	for name, js := range p.ResourceIdentitySchemas {
		id := &tfprotov6.ResourceIdentitySchema{Version: js.Version}
		for _, attrName := range sortedKeys(js.Attributes) {
			a := js.Attributes[attrName]
			t, err := jsonType(a.Type)
			if err != nil {
				return nil, fmt.Errorf("identity of %s: %s: %w", name, attrName, err)
			}
			id.IdentityAttributes = append(id.IdentityAttributes, &tfprotov6.ResourceIdentitySchemaAttribute{
				Name: attrName, Type: t, RequiredForImport: a.RequiredForImport, OptionalForImport: a.OptionalForImport,
				Description: a.Description,
			})
		}
		s.identities[name], s.identityTypes[name] = id, id.ValueType()
	}
	s.resourceTypes, s.dataSourceTypes = valueTypes(s.resources), valueTypes(s.dataSources)
	return s, nil
}

func valueTypes(m map[string]*tfprotov6.Schema) map[string]tftypes.Type {
	out := make(map[string]tftypes.Type, len(m))
	for name, s := range m {
		out[name] = s.ValueType()
	}
	return out
}

func convertSchema(js *schemaJSON) (*tfprotov6.Schema, error) {
	if js == nil {
		return &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{}}, nil
	}
	b, err := convertBlock(js.Block)
	if err != nil {
		return nil, err
	}
	b.Version = js.Version
	return &tfprotov6.Schema{Version: js.Version, Block: b}, nil
}

func convertBlock(js *blockJSON) (*tfprotov6.SchemaBlock, error) {
	b := &tfprotov6.SchemaBlock{}
	if js == nil {
		return b, nil
	}
	b.Description, b.DescriptionKind, b.Deprecated = js.Description, stringKind(js.DescriptionKind), js.Deprecated
	var err error
	if b.Attributes, err = convertAttributes(js.Attributes); err != nil {
		return nil, err
	}
	for _, name := range sortedKeys(js.BlockTypes) {
		bt := js.BlockTypes[name]
		nested, err := convertBlock(bt.Block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		mode, ok := blockNesting[bt.NestingMode]
		if !ok {
			return nil, fmt.Errorf("%s: unknown nesting mode %q", name, bt.NestingMode)
		}
		b.BlockTypes = append(b.BlockTypes, &tfprotov6.SchemaNestedBlock{
			TypeName: name, Block: nested, Nesting: mode, MinItems: bt.MinItems, MaxItems: bt.MaxItems,
		})
	}
	return b, nil
}

func convertAttributes(m map[string]*attributeJSON) ([]*tfprotov6.SchemaAttribute, error) {
	var out []*tfprotov6.SchemaAttribute
	for _, name := range sortedKeys(m) {
		a := m[name]
		attr := &tfprotov6.SchemaAttribute{
			Name: name, Description: a.Description, DescriptionKind: stringKind(a.DescriptionKind),
			Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive,
			Deprecated: a.Deprecated, WriteOnly: a.WriteOnly,
		}
		if a.NestedType != nil {
			attrs, err := convertAttributes(a.NestedType.Attributes)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			mode, ok := objectNesting[a.NestedType.NestingMode]
			if !ok {
				return nil, fmt.Errorf("%s: unknown nesting mode %q", name, a.NestedType.NestingMode)
			}
			attr.NestedType = &tfprotov6.SchemaObject{Attributes: attrs, Nesting: mode}
		} else {
			t, err := jsonType(a.Type)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			attr.Type = t
		}
		out = append(out, attr)
	}
	return out, nil
}

var blockNesting = map[string]tfprotov6.SchemaNestedBlockNestingMode{
	"single": tfprotov6.SchemaNestedBlockNestingModeSingle, "list": tfprotov6.SchemaNestedBlockNestingModeList,
	"set": tfprotov6.SchemaNestedBlockNestingModeSet, "map": tfprotov6.SchemaNestedBlockNestingModeMap,
	"group": tfprotov6.SchemaNestedBlockNestingModeGroup,
}

var objectNesting = map[string]tfprotov6.SchemaObjectNestingMode{
	"single": tfprotov6.SchemaObjectNestingModeSingle, "list": tfprotov6.SchemaObjectNestingModeList,
	"set": tfprotov6.SchemaObjectNestingModeSet, "map": tfprotov6.SchemaObjectNestingModeMap,
}

func stringKind(kind string) tfprotov6.StringKind {
	if kind == "markdown" {
		return tfprotov6.StringKindMarkdown
	}
	return tfprotov6.StringKindPlain
}

// sortedKeys: the schemas are served in a fixed order, as the JSON printed them.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
