package grpcanswers

import (
	"maps"
	"slices"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestShapesKnown: the protocol's messages are the shapes the path reads, so the provider
// takes it; a message with a field the path does not list, or without one it lists, turns
// the path off.
func TestShapesKnown(t *testing.T) {
	const plan = "tfplugin6.PlanResourceChange.Request"
	without := func(name protoreflect.Name) []protoreflect.Name {
		return slices.DeleteFunc(slices.Clone(shapes[plan]), func(n protoreflect.Name) bool { return n == name })
	}
	for _, c := range []struct {
		name   string
		fields []protoreflect.Name
		want   string
	}{
		{"as registered", shapes[plan], ""},
		{"a field unread", without("prior_identity"), plan + " has 8 fields, the path reads 7"},
		{"a field misnamed", append(without("prior_identity"), "prior_identities"), plan + " has no field prior_identities"},
	} {
		t.Run(c.name, func(t *testing.T) {
			altered := maps.Clone(shapes)
			altered[plan] = c.fields
			got := ""
			if err := sameShapes(altered); err != nil {
				got = err.Error()
			}
			if got != c.want {
				t.Errorf("sameShapes: %q, want %q", got, c.want)
			}
		})
	}
	if err := shapesKnown(); err != nil {
		t.Errorf("the gRPC path is off: %v", err)
	}
}
