package astra

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const bucketRoute = "/topology/v1/buckets/{bucket_id}"

// A DELETE whose answer was lost (the bucket deleted) and whose retries then met 500s gave
// up with the 500: the bucket's own GET answers 404, so the delete happened and it
// succeeds. The fixture allows two retries: lost, lost, then the 500 that is not retried.
func TestRemoveReadsTheObjectAfterALostAnswer(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: bucketRoute, Kind: astrasim.FaultLostAnswer, Times: 2})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: bucketRoute, Kind: astrasim.FaultInternal, Times: 2})
	ctx := context.Background()
	if err := f.c.DeleteBucket(ctx, f.bucketID); err != nil {
		t.Fatalf("DeleteBucket: %v; the bucket is gone, so the delete happened", err)
	}
	if _, err := f.c.GetBucket(ctx, f.bucketID); !IsNotFound(err) {
		t.Fatalf("the bucket must be gone: %v", err)
	}
	got := []int{f.sim.Fired(http.MethodDelete, bucketRoute, astrasim.FaultLostAnswer), f.sim.Fired(http.MethodDelete, bucketRoute, astrasim.FaultInternal),
		f.sim.Count(http.MethodDelete, bucketRoute), f.sim.Count(http.MethodGet, bucketRoute)}
	// 2 lost answers, 1 500, 3 DELETEs, then 2 GETs: remove's and the check's.
	if want := []int{2, 1, 3, 2}; !slices.Equal(got, want) {
		t.Errorf("lost, 500, DELETEs, GETs = %v, want %v", got, want)
	}
}

// A 500 alone may have deleted nothing: the GET finds the bucket, and the DELETE's error
// stands. A refusal (409) is an answer that says nothing was done: nothing is read.
func TestRemoveKeepsTheErrorWhileTheObjectStays(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	ctx := context.Background()
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: bucketRoute, Kind: astrasim.FaultInternal, Times: 1})
	err := f.c.DeleteBucket(ctx, f.bucketID)
	if statusOf(err) != http.StatusInternalServerError {
		t.Fatalf("DeleteBucket: %v, want the 500", err)
	}
	if got, want := []int{f.sim.Count(http.MethodDelete, bucketRoute), f.sim.Count(http.MethodGet, bucketRoute)}, []int{1, 1}; !slices.Equal(got, want) {
		t.Errorf("after a 500: DELETEs, GETs = %v, want %v", got, want)
	}
	f.sim.ResetCounts()
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: bucketRoute, Kind: astrasim.FaultRetryLater, Problem: ProblemBucketInUse, Times: 1})
	if err := f.c.DeleteBucket(ctx, f.bucketID); ProblemNumber(err) != ProblemBucketInUse {
		t.Fatalf("DeleteBucket: %v, want problem 83", err)
	}
	if got, want := []int{f.sim.Count(http.MethodDelete, bucketRoute), f.sim.Count(http.MethodGet, bucketRoute)}, []int{1, 0}; !slices.Equal(got, want) {
		t.Errorf("after a 409: DELETEs, GETs = %v, want %v", got, want)
	}
}

// A forced backup delete goes the same way: its header is sent on every attempt, and the
// 404 after a lost answer means it happened.
func TestRemoveReadsABackupAfterALostForcedDelete(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	ctx := context.Background()
	b, err := f.c.CreateAppBackup(ctx, f.appID, AppBackupCreate{Name: "forced"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WaitFrom(ctx, fastWait, b, func(ctx context.Context) (*AppBackup, error) { return f.c.GetAppBackup(ctx, f.appID, b.ID) },
		AppBackupCompleted); err != nil {
		t.Fatal(err)
	}
	route := "/k8s/v1/apps/{app_id}/appBackups/{appBackup_id}"
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: route, Kind: astrasim.FaultLostAnswer, Times: 1})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodDelete, Route: route, Kind: astrasim.FaultBadGateway, Times: 2})
	f.sim.ResetCounts()
	if err := f.c.DeleteAppBackup(ctx, f.appID, b.ID, true); err != nil {
		t.Fatalf("DeleteAppBackup: %v; the backup is gone, so the delete happened", err)
	}
	if got, want := []int{f.sim.Count(http.MethodDelete, route), f.sim.Count(http.MethodGet, route)}, []int{3, 1}; !slices.Equal(got, want) {
		t.Errorf("DELETEs, GETs = %v, want %v", got, want)
	}
}
