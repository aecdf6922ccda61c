package echo

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// providerJSONWith is `providers schema -json`'s output for provider "p" with the given
// entries beside a provider schema.
func providerJSONWith(entries string) []byte {
	return []byte(`{"format_version": "1.0", "provider_schemas": {"p": {"provider": {"version": 0, "block": {}}` + entries + `}}}`)
}

// TestActionSchemaServed converts an action as Terraform 1.16 prints one (a block alone,
// command/jsonprovider's ActionSchema) and checks that GetProviderSchema serves exactly
// that schema and GetMetadata lists the action.
func TestActionSchemaServed(t *testing.T) {
	data := providerJSONWith(`, "action_schemas": {"x_snapshot": {"block": {
		"attributes": {
			"app_id": {"type": "string", "description": "App.", "description_kind": "markdown", "required": true},
			"labels": {"type": ["list", "string"], "description_kind": "plain", "optional": true, "sensitive": true},
			"filter": {"nested_type": {"nesting_mode": "list", "attributes": {
				"kind": {"type": "string", "description_kind": "plain", "optional": true}}}, "description_kind": "plain", "optional": true}
		},
		"block_types": {"wait": {"nesting_mode": "single", "min_items": 0, "max_items": 1, "block": {
			"attributes": {"timeout": {"type": "string", "description_kind": "plain", "optional": true}}, "description_kind": "plain"}}},
		"description": "Takes a snapshot.", "description_kind": "markdown"}}}`)
	want := &tfprotov6.ActionSchema{Schema: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
		Description: "Takes a snapshot.", DescriptionKind: tfprotov6.StringKindMarkdown,
		Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "app_id", Type: tftypes.String, Description: "App.", DescriptionKind: tfprotov6.StringKindMarkdown, Required: true},
			{Name: "filter", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeList,
				Attributes: []*tfprotov6.SchemaAttribute{{Name: "kind", Type: tftypes.String, Optional: true}}}},
			{Name: "labels", Type: tftypes.List{ElementType: tftypes.String}, Optional: true, Sensitive: true},
		},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "wait", Nesting: tfprotov6.SchemaNestedBlockNestingModeSingle, MaxItems: 1,
			Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{{Name: "timeout", Type: tftypes.String, Optional: true}}}}},
	}}}
	s, err := New(data, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := s.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.ActionSchemas) != 1 || !reflect.DeepEqual(resp.ActionSchemas["x_snapshot"], want) {
		t.Errorf("action schemas served: %#v\nwant x_snapshot: %#v", resp.ActionSchemas, want)
	}
	meta, err := s.GetMetadata(context.Background(), &tfprotov6.GetMetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if wantMeta := []tfprotov6.ActionMetadata{{TypeName: "x_snapshot"}}; !reflect.DeepEqual(meta.Actions, wantMeta) {
		t.Errorf("metadata lists actions %+v, want %+v", meta.Actions, wantMeta)
	}
}

// TestSchemasRefused: a provider with functions or state stores is refused, naming it.
func TestSchemasRefused(t *testing.T) {
	const refusal = "provider schemas: p has functions or state stores, which the echo floor does not serve"
	for name, entries := range map[string]string{
		"function":    `, "functions": {"f": {"parameters": [], "return_type": "string"}}`,
		"state store": `, "state_store_schemas": {"p_store": {"version": 0, "block": {}}}`,
		"both": `, "functions": {"f": {"parameters": [], "return_type": "string"}},
			"state_store_schemas": {"p_store": {"version": 0, "block": {}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(providerJSONWith(entries), "", nil)
			if err == nil || err.Error() != refusal {
				t.Errorf("New: %v, want %q", err, refusal)
			}
		})
	}
}

// TestActionRPCs: validation and planning of an action answer nothing; an invocation
// completes at once with the echo floor's refusal.
func TestActionRPCs(t *testing.T) {
	s, _ := testServer(t)
	ctx := context.Background()
	validated, err := s.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: "astra_app_snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, validated.Diagnostics)
	planned, err := s.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: "astra_app_snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, planned.Diagnostics)
	if planned.Deferred != nil {
		t.Errorf("PlanAction deferred: %+v", planned.Deferred)
	}

	stream, err := s.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: "astra_app_snapshot"})
	if err != nil {
		t.Fatal(err)
	}
	var events []tfprotov6.InvokeActionEvent
	for e := range stream.Events {
		events = append(events, e)
	}
	want := []tfprotov6.InvokeActionEvent{{Type: tfprotov6.CompletedInvokeActionEventType{Diagnostics: []*tfprotov6.Diagnostic{{
		Severity: tfprotov6.DiagnosticSeverityError, Summary: "Echo floor",
		Detail: "the echo floor does not invoke actions (nothing records their effects): astra_app_snapshot not invoked",
	}}}}}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("InvokeAction events: %s, want %s", eventsString(events), eventsString(want))
	}
}

func eventsString(events []tfprotov6.InvokeActionEvent) string {
	var out string
	for _, e := range events {
		if c, ok := e.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
			for _, d := range c.Diagnostics {
				out += "[completed: " + d.Summary + ": " + d.Detail + "]"
			}
			continue
		}
		out += "[" + reflect.TypeOf(e.Type).Name() + "]"
	}
	return out
}
