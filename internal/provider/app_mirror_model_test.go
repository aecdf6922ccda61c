package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestAppMirrorFrom_keepsConfiguredSides: after a reverse the state keeps the sides as the
// configuration wrote them (so the plan stays quiet) and says which side replicates now;
// an import takes the service's direction.
func TestAppMirrorFrom_keepsConfiguredSides(t *testing.T) {
	reversed := &astra.AppMirror{ID: "m", SourceAppID: "b", SourceClusterID: "cb", DestinationAppID: "a",
		DestinationClusterID: "ca", State: astra.MirrorEstablished, StateDesired: astra.MirrorEstablished}
	got := appMirrorFrom(reversed, appMirrorValues{SourceAppID: types.StringValue("a")})
	if got.SourceAppID.ValueString() != "a" || got.DestinationClusterID.ValueString() != "cb" ||
		got.DestinationAppID.ValueString() != "b" || got.SourceClusterID.ValueString() != "ca" ||
		got.CurrentSourceAppID.ValueString() != "b" {
		t.Errorf("reversed relationship seen from a: %+v", got)
	}
	imported := appMirrorFrom(reversed, appMirrorValues{})
	if imported.SourceAppID.ValueString() != "b" || imported.DestinationClusterID.ValueString() != "ca" {
		t.Errorf("import: %+v", imported)
	}
	if cur := currentSidesOf(got); cur.sourceApp != "b" || cur.destinationCluster != "ca" || !cur.reversed {
		t.Errorf("current sides: %+v", cur)
	}
}

// TestMirrorStepFor: each step is chosen from the relationship as read, so a step the
// service already took is only waited for (nothing failed over twice).
func TestMirrorStepFor(t *testing.T) {
	m := func(state, desired, source string) *astra.AppMirror {
		return &astra.AppMirror{ID: "m", State: state, StateDesired: desired, SourceAppID: source, DestinationAppID: "other"}
	}
	for _, c := range []struct {
		name       string
		m          *astra.AppMirror
		wantSource string
		desired    string
		want       mirrorStepKind
	}{
		{"failover", m("established", "established", "a"), "a", mirrorWantFailedOver, mirrorFailover},
		{"failing over already", m("failingOver", "failedOver", "a"), "a", mirrorWantFailedOver, mirrorWait},
		{"failover asked, not started", m("established", "failedOver", "a"), "a", mirrorWantFailedOver, mirrorWait},
		{"failed over already", m("failedOver", "failedOver", "a"), "a", mirrorWantFailedOver, mirrorNothing},
		{"resync", m("failedOver", "failedOver", "a"), "a", mirrorWantEstablished, mirrorResync},
		{"establishing", m("establishing", "established", "a"), "a", mirrorWantEstablished, mirrorWait},
		{"reverse", m("failedOver", "failedOver", "a"), "other", mirrorWantEstablished, mirrorReverse},
		{"reversed already, establishing", m("establishing", "established", "a"), "other", mirrorWantEstablished, mirrorWait},
	} {
		if got := mirrorStepFor(c.m, c.wantSource, c.desired); got.kind != c.want {
			t.Errorf("%s: step %d, want %d", c.name, got.kind, c.want)
		}
	}
	// A reverse swaps all four IDs.
	rev := mirrorChange(&astra.AppMirror{SourceAppID: "a", SourceClusterID: "ca", DestinationAppID: "b", DestinationClusterID: "cb"}, mirrorReverse)
	if rev.SourceAppID != "b" || rev.SourceClusterID != "cb" || rev.DestinationAppID != "a" || rev.DestinationClusterID != "ca" {
		t.Errorf("reverse body %+v", rev)
	}
	if !mirrorTook(&astra.AppMirror{StateDesired: "failedOver", State: "failingOver"}, astra.AppMirrorChange{StateDesired: "failedOver"}) {
		t.Errorf("a failover under way is not taken as done")
	}
	if mirrorTook(&astra.AppMirror{StateDesired: "established", State: "failedOver", SourceAppID: "a"},
		astra.AppMirrorChange{StateDesired: "established", SourceAppID: "b"}) {
		t.Errorf("a reverse not taken is taken")
	}
}
