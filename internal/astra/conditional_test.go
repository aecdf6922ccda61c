package astra

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// cloudServer answers GET and PUT of one cloud. Every GET carries the ETag "e<n>" (n counts
// the GETs) unless noETag; the first conflicts PUTs answer 412 problem 38.
func cloudServer(t *testing.T, conflicts int, noETag bool) *fakeAstra {
	tag := func(gets int) string { return fmt.Sprintf(`"e%d"`, gets) }
	if noETag {
		tag = func(int) string { return "" }
	}
	return taggedCloudServer(t, conflicts, tag)
}

// taggedCloudServer is cloudServer with the ETag of the n-th GET given by tag ("" for none).
func taggedCloudServer(t *testing.T, conflicts int, tag func(gets int) string) *fakeAstra {
	var mu sync.Mutex
	gets, puts := 0, 0
	return newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		mu.Lock()
		defer mu.Unlock()
		switch r.Method {
		case http.MethodGet:
			gets++
			if etag := tag(gets); etag != "" {
				w.Header().Set("ETag", etag)
			}
			reply(w, http.StatusOK, "application/json", cloudJSON)
		case http.MethodPut:
			puts++
			if puts <= conflicts {
				reply(w, http.StatusPreconditionFailed, "application/problem+json",
					problemJSON(38, "412", "Precondition failed", "The resource changed."))
				return
			}
			w.WriteHeader(http.StatusNoContent)
		}
	})
}

// updateCloud renames the cloud with UpdateConditionally and counts the copies apply saw.
func updateCloud(t *testing.T, f *fakeAstra) (*Cloud, int, error) {
	t.Helper()
	return updateCloudWith(context.Background(), f.client(t))
}

func updateCloudWith(ctx context.Context, c *Client) (*Cloud, int, error) {
	applied := 0
	out, err := UpdateConditionally(ctx, c, "cloud "+testCloud,
		func(ctx context.Context) (*Cloud, error) { return c.GetCloud(ctx, testCloud) },
		func(cl *Cloud) { applied++; cl.DefaultBucketID = testBucket },
		c.UpdateCloud)
	return out, applied, err
}

// methodsAndIfMatch lists the requests as "METHOD If-Match" for the assertions.
func methodsAndIfMatch(f *fakeAstra) []string {
	var out []string
	for _, r := range f.requests() {
		out = append(out, strings.TrimSpace(r.Method+" "+r.Header.Get("If-Match")))
	}
	return out
}

func TestUpdateConditionallyRetriesFromAFreshReadAfter412(t *testing.T) {
	f := cloudServer(t, 2, false)
	got, applied, err := updateCloud(t, f)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.ID != testCloud || applied != 3 {
		t.Fatalf("answer %+v after %d applies, want the cloud after 3", got, applied)
	}
	// Each PUT is conditional on the GET just before it; the 204 is followed by a read.
	want := []string{`GET`, `PUT "e1"`, `GET`, `PUT "e2"`, `GET`, `PUT "e3"`, `GET`}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", got, want)
	}
	for _, r := range f.requests() {
		if r.Method == http.MethodPut && !strings.Contains(string(r.Body), `"defaultBucketID":"`+testBucket+`"`) {
			t.Errorf("a PUT without the planned change: %s", r.Body)
		}
	}
}

func TestUpdateConditionallyGivesUpNamingTheObject(t *testing.T) {
	f := cloudServer(t, 100, false)
	_, applied, err := updateCloud(t, f)
	var changed *ChangedDuringApplyError
	if !errors.As(err, &changed) || applied != MaxUpdateAttempts {
		t.Fatalf("err %v after %d applies, want a ChangedDuringApplyError after %d", err, applied, MaxUpdateAttempts)
	}
	want := "cloud " + testCloud + " changed during the apply: someone else wrote it between this apply's read and " +
		"its update, 3 times in a row, so this update was not applied and nothing was overwritten. The next plan " +
		"shows the difference between the object as it is now and the configuration; apply again to converge. " +
		"Last answer: "
	if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "412") {
		t.Errorf("error text:\n%s\nwant it to start with:\n%s", err, want)
	}
	if n := f.count(); n != 2*MaxUpdateAttempts {
		t.Errorf("%d requests, want %d (a GET and a PUT per attempt)", n, 2*MaxUpdateAttempts)
	}
}

func TestUpdateConditionallyWithoutETagSendsNoIfMatch(t *testing.T) {
	f := cloudServer(t, 0, true)
	if _, _, err := updateCloud(t, f); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET", "PUT", "GET"}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q (no If-Match without an ETag)", got, want)
	}
}

func TestUpdateConditionallyReadFailureIsNotAWrite(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		reply(w, http.StatusNotFound, "application/problem+json", problemJSON(1, "404", "Not found", "gone"))
	})
	_, _, err := updateCloud(t, f)
	var read *ReadBeforeUpdateError
	if !errors.As(err, &read) || !IsNotFound(err) {
		t.Fatalf("err %v, want a ReadBeforeUpdateError holding the 404", err)
	}
	if got := methodsAndIfMatch(f); len(got) != 1 || got[0] != "GET" {
		t.Errorf("requests %q, want the one GET", got)
	}
}

// Against the simulator: the read an update starts from is its own GET even while a fresh
// listing could answer it, and a concurrent writer's change survives the update.
func TestUpdateConditionallyOwnReadAndConcurrentWriter(t *testing.T) {
	f := newShareFixture(t, 12, time.Minute)
	f.readAll(t, f.ids, true) // a fleet refresh: the whole collection is now listed
	f.sim.ResetCounts()
	route := "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}"
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPut, Route: route, Kind: astrasim.FaultConcurrentWrite, Times: 1})
	id := f.ids[4]
	updated, err := f.labelTeamBlue(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.sim.Fired(http.MethodPut, route, astrasim.FaultConcurrentWrite); n != 1 {
		t.Fatalf("the concurrent writer fired %d times, want 1", n)
	}
	// The writer's change (tridentManagedStateDesired) and ours (the label) are both there.
	if !hasLabel(updated.Metadata.Labels, "team", "blue") || updated.TridentManagedStateDesired != "managed" {
		t.Errorf("after the update: labels %v, tridentManagedStateDesired %q; want team=blue and managed",
			updated.Metadata.Labels, updated.TridentManagedStateDesired)
	}
	// Two own GETs (never the listing) and the read after the final 204; two PUTs, both
	// conditional: the first lost to the writer.
	if got, want := f.sim.Count("GET", route), 3; got != want {
		t.Errorf("%d own GETs, want %d: %v", got, want, f.sim.Counts())
	}
	if n, c := f.sim.Count("PUT", route), f.sim.CountConditional("PUT", route); n != 2 || c != 2 {
		t.Errorf("%d PUTs, %d conditional; want 2 and 2", n, c)
	}
}

// A PUT applied whose answer was lost is retried with the same If-Match, which its own
// write has made stale: the 412 makes the update read again and PUT once more, the same
// change, which then applies. Nothing is lost and nothing applied twice differs.
func TestUpdateConditionallyAfterALostPUTAnswer(t *testing.T) {
	f := newShareFixture(t, 1, 0)
	route := "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}"
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPut, Route: route, Kind: astrasim.FaultLostAnswer, Times: 1})
	id := f.ids[0]
	updated, err := f.labelTeamBlue(id)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.sim.Fired(http.MethodPut, route, astrasim.FaultLostAnswer); n != 1 {
		t.Fatalf("the lost answer fired %d times, want 1", n)
	}
	if !hasLabel(updated.Metadata.Labels, "team", "blue") || len(withLabel(updated.Metadata.Labels, Label{Name: "team"})) != len(updated.Metadata.Labels) {
		t.Errorf("labels %v, want team=blue once", updated.Metadata.Labels)
	}
	// The lost PUT, its retry (412), and the PUT after a fresh read: all conditional.
	if n, c := f.sim.Count("PUT", route), f.sim.CountConditional("PUT", route); n != 3 || c != 3 {
		t.Errorf("%d PUTs, %d conditional; want 3 and 3", n, c)
	}
}

// withLabel is labels with l set (replacing any label of its name), as a planned change is:
// applying it twice is applying it once.
func withLabel(labels []Label, l Label) []Label {
	out := []Label{l}
	for _, x := range labels {
		if x.Name != l.Name {
			out = append(out, x)
		}
	}
	return out
}

// labelTeamBlue adds the label team=blue to cluster id with UpdateConditionally.
func (f *shareFixture) labelTeamBlue(id string) (*Cluster, error) {
	return UpdateConditionally(context.Background(), f.c, "cluster "+id,
		func(ctx context.Context) (*Cluster, error) { return f.c.GetCluster(ctx, f.cloud, id) },
		func(c *Cluster) { c.Metadata.Labels = withLabel(c.Metadata.Labels, Label{Name: "team", Value: "blue"}) },
		func(ctx context.Context, c *Cluster) (*Cluster, error) { return f.c.UpdateCluster(ctx, f.cloud, c) })
}

// A weak ETag (W/"…") is never sent in If-Match: RFC 9110 compares If-Match strongly, so
// a weak tag can never match and every write would fail. The update goes unconditioned.
func TestUpdateConditionallyNeverSendsAWeakETag(t *testing.T) {
	f := taggedCloudServer(t, 0, func(n int) string { return fmt.Sprintf(`W/"e%d"`, n) })
	if _, _, err := updateCloud(t, f); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET", "PUT", "GET"}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q (no If-Match with a weak ETag)", got, want)
	}
}

// A service (or proxy) that refuses the very tag it keeps answering would lock the object
// out of every update: after a 412, a fresh read answering the refused tag again makes the
// client write that object without a condition for the rest of its run, and warn once.
func TestUpdateConditionallyStopsConditioningATagItsServiceRefuses(t *testing.T) {
	f := taggedCloudServer(t, 1, func(int) string { return `"same"` })
	c := f.client(t)
	ctx, notes := WithNotes(context.Background())
	if _, _, err := updateCloudWith(ctx, c); err != nil {
		t.Fatal(err)
	}
	want := []string{`GET`, `PUT "same"`, `GET`, `PUT`, `GET`}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", got, want)
	}
	warnings := notes.Warnings()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "cloud "+testCloud+" is written without If-Match") ||
		!strings.Contains(warnings[0], "conditional_writes = false") {
		t.Fatalf("warnings %q, want one naming the object and the switch", warnings)
	}
	// The rest of the run: the same object is written without a condition, and no second warning.
	ctx, notes = WithNotes(context.Background())
	if _, _, err := updateCloudWith(ctx, c); err != nil {
		t.Fatal(err)
	}
	if got := methodsAndIfMatch(f)[5:]; strings.Join(got, "|") != "GET|PUT|GET" {
		t.Errorf("the next update's requests %q, want GET|PUT|GET (no If-Match)", got)
	}
	if w := notes.Warnings(); len(w) != 0 {
		t.Errorf("warned again: %q", w)
	}
}

// A 412 whose fresh read answers a new tag is an ordinary concurrent write: the condition
// stays, and nothing is noted.
func TestUpdateConditionallyKeepsConditioningWhenTheTagMoves(t *testing.T) {
	f := cloudServer(t, 1, false)
	ctx, notes := WithNotes(context.Background())
	if _, _, err := updateCloudWith(ctx, f.client(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{`GET`, `PUT "e1"`, `GET`, `PUT "e2"`, `GET`}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", got, want)
	}
	if w := notes.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}
}

// Config.NoConditionalWrites: no If-Match at all, whatever the ETags.
func TestUpdateConditionallyOff(t *testing.T) {
	f := cloudServer(t, 0, false)
	c := f.client(t, func(cfg *Config) { cfg.NoConditionalWrites = true })
	if _, _, err := updateCloudWith(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET", "PUT", "GET"}
	if got := methodsAndIfMatch(f); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("requests %q, want %q", got, want)
	}
}
