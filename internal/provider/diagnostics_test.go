package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestAddWaitError(t *testing.T) {
	const aftermath = "The cluster is in state."
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"terminal state with reasons",
			&astra.TerminalStateError{What: "cluster c1", State: "failed", Reasons: []string{"r1", "r2"}},
			"Astra Control reports cluster c1 as failed: r1; r2.\n\n" + aftermath},
		{"terminal state without reasons",
			&astra.TerminalStateError{What: "cluster c1", State: "failed"},
			"Astra Control reports cluster c1 as failed: the service gave no reason.\n\n" + aftermath},
		{"timeout",
			&astra.WaitTimeoutError{What: "cluster c1", LastState: "state pending", Err: context.DeadlineExceeded},
			"Timed out after 30m0s waiting for cluster c1 (last seen: state pending). Raise the timeout in the resource's " +
				"timeouts attribute if it needs longer.\n\n" + aftermath},
		{"cancelled before any answer",
			&astra.WaitTimeoutError{What: "the object", Err: context.Canceled},
			"The wait for the object was cancelled (no state seen yet).\n\n" + aftermath},
		{"failed read",
			errors.New("GET /x: 500 Internal error"),
			"Reading the object while waiting failed: GET /x: 500 Internal error\n\n" + aftermath},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			addWaitError(&diags, "Cluster did not reach running", c.err, 30*time.Minute, aftermath)
			if len(diags) != 1 || diags[0].Summary() != "Cluster did not reach running" || diags[0].Detail() != c.want {
				t.Fatalf("got %v\nwant detail %q", diags, c.want)
			}
		})
	}
}

func TestAddAPIErrorAttachesInvalidFields(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &astra.APIError{Method: "POST", Path: "/p", StatusCode: 400, Title: "Invalid",
		InvalidFields: []astra.InvalidField{{Name: "credentialID", Reason: "no credential has this ID"}, {Name: "unknown", Reason: "x"}}})
	var diags diag.Diagnostics
	addAPIError(&diags, "Cannot add the cluster", err, clusterAPIFields)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	withPath, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !withPath.Path().Equal(path.Root("credential_id")) {
		t.Fatalf("diagnostic not attached to credential_id: %#v", diags[0])
	}

	diags = nil
	addAPIError(&diags, "Cannot read the cluster", errors.New("dial tcp: refused"), nil)
	if len(diags) != 1 || diags[0].Detail() != "dial tcp: refused" {
		t.Fatalf("plain error: %v", diags)
	}
}

func TestCreatedOrAdopted(t *testing.T) {
	lost := &astra.UnknownOutcomeError{Method: "POST", Path: "/core/v1/credentials", Err: errors.New("connection reset")}
	sent := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) astra.Metadata {
		return astra.Metadata{CreationTimestamp: sent.Add(d).Format("2006-01-02T15:04:05.000000Z")}
	}
	created := &astra.Cloud{ID: "created", Metadata: at(time.Second)}
	adopted := &astra.Cloud{ID: "adopted", Metadata: at(2 * time.Second)}
	sameSecond := &astra.Cloud{ID: "same-second", Metadata: astra.Metadata{CreationTimestamp: "2024-03-01T12:00:00Z"}}
	skewed := &astra.Cloud{ID: "skewed", Metadata: at(-adoptionClockSkew + time.Millisecond)}
	older := &astra.Cloud{ID: "older", Metadata: at(-time.Hour)}
	undated := &astra.Cloud{ID: "undated"}
	held := &astra.Cloud{ID: "held", Metadata: at(time.Second)}
	refused := &astra.APIError{Method: "POST", Path: "/topology/v1/clouds", StatusCode: 409, Problem: 140, Title: "Duplicate cloud name"}
	cases := []struct {
		name      string
		obj       *astra.Cloud
		err       error
		found     *astra.Cloud
		findErr   error
		want      *astra.Cloud
		wantFind  bool
		wantError string
	}{
		{"created", created, nil, nil, nil, created, false, ""},
		{"refused", nil, refused, nil, nil, nil, false, "Cannot create the cloud"},
		{"lost, then found", nil, lost, adopted, nil, adopted, true, ""},
		{"lost, found, same second (timestamps in whole seconds)", nil, lost, sameSecond, nil, sameSecond, true, ""},
		{"lost, found, within the clock skew", nil, lost, skewed, nil, skewed, true, ""},
		{"lost, not found", nil, lost, nil, nil, nil, true, "Outcome of creating cloud x is unknown"},
		{"lost, look-up failed", nil, lost, nil, errors.New("503"), nil, true, "looking for it afterwards failed: 503"},
		{"lost, found one older than the request", nil, lost, older, nil, nil, true,
			"the object found, ID older, matches the request, but it was created at 2024-03-01T11:00:00Z, before this request was sent at " +
				"2024-03-01T12:00:00Z, so it is not the one this request created; it was not adopted"},
		{"lost, found one without a creation time", nil, lost, undated, nil, nil, true, `its creation time ("") cannot be read`},
		{"lost, found one another resource holds", nil, lost, held, nil, nil, true,
			"ID held, matches the request, but another resource of this run already holds it in state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			looked := false
			claims := newClaimSet()
			claims.claim(cloudStamp(held))
			got := createdOrAdopted(context.Background(), &diags, "cloud x", "Cannot create the cloud", nil, c.obj, c.err,
				lostCreate[astra.Cloud]{sent: sent, claims: claims, stamp: cloudStamp,
					find: func(context.Context) (*astra.Cloud, error) { looked = true; return c.found, c.findErr }})
			if got != c.want || looked != c.wantFind {
				t.Fatalf("got %v (looked %v), want %v (looked %v)", got, looked, c.want, c.wantFind)
			}
			text := ""
			for _, d := range diags {
				text += d.Summary() + ": " + d.Detail() + "\n"
			}
			if (c.wantError == "") != !diags.HasError() || !strings.Contains(text, c.wantError) {
				t.Fatalf("diagnostics %q, want an error containing %q", text, c.wantError)
			}
			if got != nil && !claims.claimed(cloudStamp(got).key()) {
				t.Fatalf("%s is in state now but not claimed for this run", got.ID)
			}
		})
	}
}

// TestManagedClusterStamp: a cluster still being brought under management has no managed
// timestamp yet and can be the lost request's; one managed before the request cannot.
func TestManagedClusterStamp(t *testing.T) {
	lost := lostCreate[astra.ManagedCluster]{sent: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC), claims: newClaimSet(), stamp: managedClusterStamp}
	managing := &astra.ManagedCluster{ID: "m", ClusterStatus: astra.ClusterStatus{ManagedState: "managing"}}
	if reason := lost.notAdoptable(managing); reason != "" {
		t.Errorf("a cluster still being managed is refused: %s", reason)
	}
	before := &astra.ManagedCluster{ID: "m", ClusterStatus: astra.ClusterStatus{ManagedState: "managed", ManagedTimestamp: "2024-03-01T10:00:00Z"}}
	if reason := lost.notAdoptable(before); !strings.Contains(reason, "created at 2024-03-01T10:00:00Z, before this request") {
		t.Errorf("a cluster managed two hours before the request: %q", reason)
	}
}

// TestCreatedOrAdoptedSettles: a server still acting on a request the client gave up on
// creates the object a little later; the search repeats for settle and adopts it.
func TestCreatedOrAdoptedSettles(t *testing.T) {
	lost := &astra.UnknownOutcomeError{Method: "POST", Path: "/core/v1/credentials", Err: errors.New("timeout")}
	sent := time.Now()
	late := &astra.Cloud{ID: "late", Metadata: astra.Metadata{CreationTimestamp: sent.Add(time.Second).UTC().Format(time.RFC3339Nano)}}
	for _, c := range []struct {
		name      string
		settle    time.Duration
		wantLooks int
		want      *astra.Cloud
	}{
		{"found on the third look", time.Second, 3, late},
		{"no settling: one look, unknown", 0, 1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			looks := 0
			got := createdOrAdopted(context.Background(), &diags, "cloud x", "Cannot create the cloud", nil, nil, lost,
				lostCreate[astra.Cloud]{sent: sent, claims: newClaimSet(), stamp: cloudStamp, settle: c.settle,
					find: func(ctx context.Context) (*astra.Cloud, error) {
						looks++
						if looks < 3 {
							return nil, nil
						}
						return late, nil
					}})
			if got != c.want || looks != c.wantLooks || (c.want == nil) != diags.HasError() {
				t.Fatalf("got %v after %d looks (%v); want %v after %d", got, looks, diags, c.want, c.wantLooks)
			}
		})
	}
}

// TestClaimsAreKeyedByKind: a managed cluster has its cluster's ID; the cluster created in
// the same run does not make the managed cluster look taken.
// TestCreatedOrAdoptedAfterInterrupt: the CLI's interrupt cancels the create's context
// while the POST is in flight; the search still runs, with a context of its own bounded by
// the settle window, so the object the POST made is recorded, not orphaned.
func TestCreatedOrAdoptedAfterInterrupt(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	lost := &astra.UnknownOutcomeError{Method: "POST", Path: "/topology/v1/clouds", Err: context.Canceled}
	sent := time.Now()
	made := &astra.Cloud{ID: "made", Metadata: astra.Metadata{CreationTimestamp: sent.UTC().Format(time.RFC3339Nano)}}
	var diags diag.Diagnostics
	var searchErr error
	var bounded bool
	got := createdOrAdopted(cancelled, &diags, "cloud x", "Cannot create the cloud", nil, nil, lost,
		lostCreate[astra.Cloud]{sent: sent, claims: newClaimSet(), stamp: cloudStamp, settle: 5 * time.Second,
			find: func(ctx context.Context) (*astra.Cloud, error) {
				_, bounded = ctx.Deadline()
				if searchErr = ctx.Err(); searchErr != nil {
					return nil, searchErr
				}
				return made, nil
			}})
	if got != made || diags.HasError() || searchErr != nil || !bounded {
		t.Fatalf("got %v (%v); the search's context: err %v, deadline %v; want the object adopted by a live, bounded search",
			got, diags, searchErr, bounded)
	}
}

// TestCreatedOrAdoptedInterruptedWhileSearching: the interrupt comes while the search is
// settling (the first looks find nothing, the object appears later): the search goes on
// under its own bounded context and adopts it, instead of ending with the interrupt and
// orphaning the object.
func TestCreatedOrAdoptedInterruptedWhileSearching(t *testing.T) {
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	lost := &astra.UnknownOutcomeError{Method: "POST", Path: "/topology/v1/clouds", Err: errors.New("504")}
	sent := time.Now()
	made := &astra.Cloud{ID: "made", Metadata: astra.Metadata{CreationTimestamp: sent.UTC().Format(time.RFC3339Nano)}}
	var diags diag.Diagnostics
	looks, interruptedAt := 0, 0
	got := createdOrAdopted(ctx, &diags, "cloud x", "Cannot create the cloud", nil, nil, lost,
		lostCreate[astra.Cloud]{sent: sent, claims: newClaimSet(), stamp: cloudStamp, settle: 2 * time.Second,
			find: func(ctx context.Context) (*astra.Cloud, error) {
				looks++
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				if looks == 2 {
					interrupt() // Ctrl-C while the search settles
					interruptedAt = looks
				}
				if looks < 4 {
					return nil, nil
				}
				return made, nil
			}})
	if got != made || diags.HasError() || interruptedAt != 2 {
		t.Fatalf("got %v after %d looks, interrupted at look %d (%v); want the object adopted after the interrupt", got, looks, interruptedAt, diags)
	}
}

func TestClaimsAreKeyedByKind(t *testing.T) {
	claims := newClaimSet()
	claims.claim(clusterStamp(&astra.Cluster{ID: "same"}))
	lost := lostCreate[astra.ManagedCluster]{sent: time.Now(), claims: claims, stamp: managedClusterStamp}
	if reason := lost.notAdoptable(&astra.ManagedCluster{ID: "same"}); reason != "" {
		t.Fatalf("the managed cluster of a cluster created in this run is refused: %s", reason)
	}
	claims.claim(managedClusterStamp(&astra.ManagedCluster{ID: "same"}))
	if reason := lost.notAdoptable(&astra.ManagedCluster{ID: "same"}); !strings.Contains(reason, "already holds it") {
		t.Fatalf("a managed cluster held in this run: %q", reason)
	}
}

// A reason that ends its own sentence does not make the error end with "..".
func TestJoinReasonsEndsOneSentence(t *testing.T) {
	var diags diag.Diagnostics
	addWaitError(&diags, "App did not become ready",
		&astra.TerminalStateError{What: "app a", State: "failed", Reasons: []string{"Volumes not found.", "Retry later. "}}, time.Minute, "Kept.")
	if got, want := diags[0].Detail(), "Astra Control reports app a as failed: Volumes not found; Retry later.\n\nKept."; got != want {
		t.Fatalf("detail %q, want %q", got, want)
	}
	if got := joinReasons(nil); got != "the service gave no reason" {
		t.Fatalf("no reasons: %q", got)
	}
}
