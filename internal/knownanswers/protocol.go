package knownanswers

import (
	"context"
	"encoding/json"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework's conversions of a resource's answer into the protocol (its toproto6 and
// privatestate packages, internal to it), for the answers made outside it: knownApply's.
// Each says false where the framework would add a diagnostic of its own.

// protocolDiagnostics converts diags as the framework does; false if a path does not
// convert (the framework then adds an error of its own).
func protocolDiagnostics(ctx context.Context, diags diag.Diagnostics) ([]*tfprotov6.Diagnostic, bool) {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		severity := tfprotov6.DiagnosticSeverityInvalid
		switch d.Severity() {
		case diag.SeverityError:
			severity = tfprotov6.DiagnosticSeverityError
		case diag.SeverityWarning:
			severity = tfprotov6.DiagnosticSeverityWarning
		}
		converted := &tfprotov6.Diagnostic{Severity: severity, Summary: d.Summary(), Detail: d.Detail()}
		if withPath, ok := d.(diag.DiagnosticWithPath); ok {
			if converted.Attribute, ok = attributePath(ctx, withPath.Path()); !ok {
				return nil, false
			}
		}
		out = append(out, converted)
	}
	return out, true
}

// attributePath is p as the protocol writes it.
func attributePath(ctx context.Context, p path.Path) (*tftypes.AttributePath, bool) {
	var steps []tftypes.AttributePathStep
	for _, step := range p.Steps() {
		switch step := step.(type) {
		case path.PathStepAttributeName:
			steps = append(steps, tftypes.AttributeName(step))
		case path.PathStepElementKeyInt:
			steps = append(steps, tftypes.ElementKeyInt(step))
		case path.PathStepElementKeyString:
			steps = append(steps, tftypes.ElementKeyString(step))
		case path.PathStepElementKeyValue:
			v, err := step.ToTerraformValue(ctx)
			if err != nil {
				return nil, false
			}
			steps = append(steps, tftypes.ElementKeyValue(v))
		default:
			return nil, false
		}
	}
	return tftypes.NewAttributePathWithSteps(steps), true
}

// privateData is the framework's private state of a resource (an internal type, reached
// through resource.CreateResponse.Private).
type privateData[P any] interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
	Equal(o P) bool
}

// newPrivate is an empty private state of like's type, as the framework gives a Create.
func newPrivate[P privateData[P]](ctx context.Context, like P) P {
	fresh, _ := reflect.New(reflect.TypeOf(like).Elem()).Interface().(P) // P is a pointer to that type
	fresh.SetKey(ctx, answerKey, nil)                                    // makes its map, as the framework's constructor does
	return fresh
}

// privateBytes encodes private as the framework does (a JSON object of its non-empty keys,
// nothing when there is none); false when it holds a key outside keys.
func privateBytes[P privateData[P]](ctx context.Context, private P, keys []string) ([]byte, bool) {
	if reflect.ValueOf(private).IsNil() {
		return nil, true
	}
	values := map[string][]byte{}
	rebuilt := newPrivate(ctx, private)
	for _, key := range keys {
		if v, _ := private.GetKey(ctx, key); len(v) > 0 {
			values[key] = v
			rebuilt.SetKey(ctx, key, v)
		}
	}
	if !rebuilt.Equal(private) {
		return nil, false
	}
	if len(values) == 0 {
		return nil, true
	}
	b, err := json.Marshal(values)
	return b, err == nil
}
