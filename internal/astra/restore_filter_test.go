package astra

import (
	"context"
	"slices"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestSelectiveRestoreAgainstTheSimulator: a restore with a filter is sent at app 2.2 and
// restores only what the filter selects; the core group is sent as "" (a set pointer).
func TestSelectiveRestoreAgainstTheSimulator(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Release: "24.02"})
	ctx := context.Background()
	snap, err := f.c.CreateAppSnapshot(ctx, f.appID, AppSnapshotCreate{Name: "base"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WaitFrom(ctx, fastWait, snap, func(ctx context.Context) (*AppSnapshot, error) {
		return f.c.GetAppSnapshot(ctx, f.appID, snap.ID)
	}, AppSnapshotCompleted); err != nil {
		t.Fatal(err)
	}
	core := ""
	filter := &RestoreFilter{SelectionCriteria: "include", GVKN: []GVKNFilter{{Group: &core, Kind: "PersistentVolumeClaim"}}}
	if err := f.c.RestoreAppSelectively(ctx, f.appID, snap.ID, "", filter); err != nil {
		t.Fatal(err)
	}
	if got, want := f.sim.Restored(f.appID), []string{"PersistentVolumeClaim default/data-default-0"}; !slices.Equal(got, want) {
		t.Errorf("restored %q, want %q", got, want)
	}
	if _, err := Wait(ctx, fastWait, func(ctx context.Context) (*App, error) { return f.c.GetApp(ctx, f.appID) }, AppReady); err != nil {
		t.Fatal(err)
	}
	if err := f.c.RestoreApp(ctx, f.appID, snap.ID, ""); err != nil {
		t.Fatal(err)
	}
	if got := f.sim.Restored(f.appID); len(got) != 4 {
		t.Errorf("a restore without a filter restored %q", got)
	}
}
