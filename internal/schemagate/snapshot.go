// Package schemagate guards the provider's stability promise: it records the provider's
// schema as the CLIs see it (GetProviderSchema over the plugin protocol, taken in-process,
// so no CLI is needed) in a committed snapshot, and compares a new schema with it, failing
// on every change that breaks users' configurations or state (docs/guides/stability.md).
package schemagate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// FormatVersion is the version of the snapshot file format.
const FormatVersion = 1

// BetaMarker starts the description of a beta resource or attribute: beta names may change
// in a minor release, so the gate reports nothing about them.
const BetaMarker = "**Beta**"

// Snapshot is the provider's schema reduced to what users' configurations and state
// depend on. Attributes are keyed by their dotted path ("timeouts.create").
type Snapshot struct {
	FormatVersion int                  `json:"format_version"`
	Provider      *Block               `json:"provider"`
	Resources     map[string]*Block    `json:"resources"`
	DataSources   map[string]*Block    `json:"data_sources"`
	ListResources map[string]*Block    `json:"list_resources,omitempty"`
	Actions       map[string]*Block    `json:"actions,omitempty"`
	Identities    map[string]*Identity `json:"resource_identities,omitempty"`
}

// Block is the schema of the provider block, a resource, a data source, a list resource or
// an action (its configuration: what users write in an action block).
type Block struct {
	Version         int64                 `json:"version"`
	Deprecated      string                `json:"deprecated,omitempty"`
	DeprecatedSince string                `json:"deprecated_since,omitempty"`
	Beta            bool                  `json:"beta,omitempty"`
	Attributes      map[string]*Attribute `json:"attributes"`
}

// Attribute is one attribute, nested attribute or nested block. Type is the Terraform type
// as HCL spells it (string, list(string)), or "nested <mode>" / "block <mode>" for a
// nested attribute or block whose members are recorded under its own path.
type Attribute struct {
	Type            string `json:"type"`
	Required        bool   `json:"required,omitempty"`
	Optional        bool   `json:"optional,omitempty"`
	Computed        bool   `json:"computed,omitempty"`
	Sensitive       bool   `json:"sensitive,omitempty"`
	WriteOnly       bool   `json:"write_only,omitempty"`
	Deprecated      string `json:"deprecated,omitempty"`
	DeprecatedSince string `json:"deprecated_since,omitempty"`
	Beta            bool   `json:"beta,omitempty"`
	MinItems        int64  `json:"min_items,omitempty"`
	MaxItems        int64  `json:"max_items,omitempty"`
}

// Identity is a resource's identity schema (import by identity, list results).
type Identity struct {
	Version    int64                         `json:"version"`
	Attributes map[string]*IdentityAttribute `json:"attributes"`
}

// IdentityAttribute is one attribute of a resource identity.
type IdentityAttribute struct {
	Type              string `json:"type"`
	RequiredForImport bool   `json:"required_for_import,omitempty"`
	OptionalForImport bool   `json:"optional_for_import,omitempty"`
}

// FromServer asks a provider server for its schemas, as a CLI would.
func FromServer(ctx context.Context, server tfprotov6.ProviderServer) (*Snapshot, error) {
	resp, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetProviderSchema: %w", err)
	}
	if err := diagnosticsError("GetProviderSchema", resp.Diagnostics); err != nil {
		return nil, err
	}
	ids, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetResourceIdentitySchemas: %w", err)
	}
	if err := diagnosticsError("GetResourceIdentitySchemas", ids.Diagnostics); err != nil {
		return nil, err
	}
	return FromProto(resp, ids)
}

func diagnosticsError(call string, diags []*tfprotov6.Diagnostic) error {
	var errs []error
	for _, d := range diags {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, fmt.Errorf("%s: %s: %s", call, d.Summary, d.Detail))
		}
	}
	return errors.Join(errs...)
}

// FromProto reduces protocol schemas to a snapshot; ids may be nil.
func FromProto(resp *tfprotov6.GetProviderSchemaResponse, ids *tfprotov6.GetResourceIdentitySchemasResponse) (*Snapshot, error) {
	s := &Snapshot{
		FormatVersion: FormatVersion,
		Resources:     map[string]*Block{},
		DataSources:   map[string]*Block{},
	}
	var err error
	if s.Provider, err = fromSchema(resp.Provider); err != nil {
		return nil, fmt.Errorf("provider: %w", err)
	}
	groups := []struct {
		from map[string]*tfprotov6.Schema
		to   *map[string]*Block
	}{
		{resp.ResourceSchemas, &s.Resources},
		{resp.DataSourceSchemas, &s.DataSources},
		{resp.ListResourceSchemas, &s.ListResources},
	}
	actions := map[string]*tfprotov6.Schema{}
	for name, a := range resp.ActionSchemas {
		if a != nil {
			actions[name] = a.Schema
		}
	}
	groups = append(groups, struct {
		from map[string]*tfprotov6.Schema
		to   *map[string]*Block
	}{actions, &s.Actions})
	for _, g := range groups {
		for name, schema := range g.from {
			b, err := fromSchema(schema)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if *g.to == nil {
				*g.to = map[string]*Block{}
			}
			(*g.to)[name] = b
		}
	}
	if ids == nil {
		return s, nil
	}
	for name, id := range ids.IdentitySchemas {
		if id == nil {
			continue
		}
		out := &Identity{Version: id.Version, Attributes: map[string]*IdentityAttribute{}}
		for _, a := range id.IdentityAttributes {
			t, err := typeString(a.Type)
			if err != nil {
				return nil, fmt.Errorf("%s identity %s: %w", name, a.Name, err)
			}
			out.Attributes[a.Name] = &IdentityAttribute{Type: t, RequiredForImport: a.RequiredForImport, OptionalForImport: a.OptionalForImport}
		}
		if s.Identities == nil {
			s.Identities = map[string]*Identity{}
		}
		s.Identities[name] = out
	}
	return s, nil
}

func fromSchema(schema *tfprotov6.Schema) (*Block, error) {
	b := &Block{Attributes: map[string]*Attribute{}}
	if schema == nil || schema.Block == nil {
		return b, nil
	}
	b.Version = schema.Version
	b.Deprecated = deprecation(schema.Block.Deprecated, schema.Block.DeprecationMessage)
	b.Beta = isBeta(schema.Block.Description)
	return b, flattenBlock(b.Attributes, "", schema.Block, b.Beta)
}

func flattenBlock(into map[string]*Attribute, prefix string, block *tfprotov6.SchemaBlock, beta bool) error {
	if err := flattenAttributes(into, prefix, block.Attributes, beta); err != nil {
		return err
	}
	for _, nb := range block.BlockTypes {
		if nb == nil || nb.Block == nil {
			continue
		}
		p := prefix + nb.TypeName
		a := &Attribute{
			Type:       "block " + strings.ToLower(nb.Nesting.String()),
			Deprecated: deprecation(nb.Block.Deprecated, nb.Block.DeprecationMessage),
			Beta:       beta || isBeta(nb.Block.Description),
			MinItems:   nb.MinItems,
			MaxItems:   nb.MaxItems,
			// A block is set by writing it, never computed.
			Optional: nb.MinItems == 0,
			Required: nb.MinItems > 0,
		}
		into[p] = a
		if err := flattenBlock(into, p+".", nb.Block, a.Beta); err != nil {
			return err
		}
	}
	return nil
}

func flattenAttributes(into map[string]*Attribute, prefix string, attributes []*tfprotov6.SchemaAttribute, beta bool) error {
	for _, attr := range attributes {
		if attr == nil {
			continue
		}
		p := prefix + attr.Name
		a := &Attribute{
			Required:   attr.Required,
			Optional:   attr.Optional,
			Computed:   attr.Computed,
			Sensitive:  attr.Sensitive,
			WriteOnly:  attr.WriteOnly,
			Deprecated: deprecation(attr.Deprecated, attr.DeprecationMessage),
			Beta:       beta || isBeta(attr.Description),
		}
		into[p] = a
		if attr.NestedType != nil {
			a.Type = "nested " + strings.ToLower(attr.NestedType.Nesting.String())
			if err := flattenAttributes(into, p+".", attr.NestedType.Attributes, a.Beta); err != nil {
				return err
			}
			continue
		}
		t, err := typeString(attr.Type)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		a.Type = t
	}
	return nil
}

// typeString spells a Terraform type as in HCL type constraints: string, list(string),
// object({a=string}). Object members are sorted, so equal types spell the same.
func typeString(t tftypes.Type) (string, error) {
	switch {
	case t == nil:
		return "", errors.New("attribute without a type")
	case t.Is(tftypes.String):
		return "string", nil
	case t.Is(tftypes.Number):
		return "number", nil
	case t.Is(tftypes.Bool):
		return "bool", nil
	case t.Is(tftypes.DynamicPseudoType):
		return "dynamic", nil
	}
	switch tt := t.(type) {
	case tftypes.List:
		return wrapType("list", tt.ElementType)
	case tftypes.Set:
		return wrapType("set", tt.ElementType)
	case tftypes.Map:
		return wrapType("map", tt.ElementType)
	case tftypes.Tuple:
		parts := make([]string, 0, len(tt.ElementTypes))
		for _, e := range tt.ElementTypes {
			s, err := typeString(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "tuple([" + strings.Join(parts, ",") + "])", nil
	case tftypes.Object:
		names := make([]string, 0, len(tt.AttributeTypes))
		for n := range tt.AttributeTypes {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, 0, len(names))
		for _, n := range names {
			s, err := typeString(tt.AttributeTypes[n])
			if err != nil {
				return "", err
			}
			if _, ok := tt.OptionalAttributes[n]; ok {
				s = "optional(" + s + ")"
			}
			parts = append(parts, n+"="+s)
		}
		return "object({" + strings.Join(parts, ",") + "})", nil
	}
	return "", fmt.Errorf("unsupported type %s", t)
}

func wrapType(kind string, elem tftypes.Type) (string, error) {
	s, err := typeString(elem)
	if err != nil {
		return "", err
	}
	return kind + "(" + s + ")", nil
}

func deprecation(deprecated bool, message string) string {
	switch {
	case message != "":
		return message
	case deprecated:
		return "deprecated"
	}
	return ""
}

func isBeta(description string) bool {
	return strings.HasPrefix(strings.TrimSpace(description), BetaMarker)
}

// Load reads a snapshot file.
func Load(path string) (*Snapshot, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read schema snapshot: %w", err)
	}
	var s Snapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("parse schema snapshot %s: %w", path, err)
	}
	if s.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("schema snapshot %s has format_version %d; this gate reads %d", path, s.FormatVersion, FormatVersion)
	}
	return &s, nil
}

// Marshal is the snapshot as committed: indented JSON with sorted keys, so a review shows
// each schema change as a small diff.
func (s *Snapshot) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("marshal schema snapshot: %w", err)
	}
	return append(b, '\n'), nil
}

// Write stores the snapshot at path.
func (s *Snapshot) Write(path string) error {
	b, err := s.Marshal()
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil { //nolint:gosec // a committed source file, world-readable like the rest
		return fmt.Errorf("write schema snapshot: %w", err)
	}
	return nil
}
