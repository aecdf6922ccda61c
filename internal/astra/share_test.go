package astra

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	routeAllClusters = "/topology/v1/clusters"
	routeAnyCluster  = "/topology/v1/clusters/{cluster_id}"
	routeManagedList = "/topology/v1/managedClusters"
	routeManagedItem = "/topology/v1/managedClusters/{managedCluster_id}"
)

// gate, once armed, holds the next GET it sees until released, so a test can line readers
// up behind it deterministically; it records every query string sent.
type gate struct {
	next    http.RoundTripper
	armed   sync.Mutex
	on      bool
	once    sync.Once
	held    chan struct{}
	release chan struct{}
	mu      sync.Mutex
	queries []string
}

func newGate() *gate {
	return &gate{next: http.DefaultTransport, held: make(chan struct{}), release: make(chan struct{})}
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		g.mu.Lock()
		g.queries = append(g.queries, r.URL.Path+"?"+r.URL.RawQuery)
		g.mu.Unlock()
		g.armed.Lock()
		on := g.on
		g.armed.Unlock()
		first := false
		if on {
			g.once.Do(func() { first = true })
		}
		if first {
			close(g.held)
			<-g.release
		}
	}
	return g.next.RoundTrip(r)
}

func (g *gate) arm() {
	g.armed.Lock()
	defer g.armed.Unlock()
	g.on = true
}

func (g *gate) sent() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.queries...)
}

// shareFixture is a simulator with n registered clusters and two clients: setup (no
// sharing) and the client under test (sharing with maxAge, its first GET gated).
type shareFixture struct {
	sim   *astrasim.Sim
	setup *Client
	c     *Client
	gate  *gate
	cloud string
	ids   []string
}

func newShareFixture(t *testing.T, n int, maxAge time.Duration) *shareFixture {
	t.Helper()
	sim, url, stop, err := astrasim.Serve(astrasim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	f := &shareFixture{sim: sim, cloud: sim.Seeds().PrivateCloudID, gate: newGate()}
	cfg := Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken,
		RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond, MaxRetries: 2}
	if f.setup, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	cfg.ReadMaxAge = maxAge
	cfg.HTTPClient = &http.Client{Transport: f.gate}
	if f.c, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("share-%d", i)
		body, err := KubeconfigCredential(name, astrasim.TestKubeconfig(name, fmt.Sprintf("https://%s.example.com:6443", name)))
		if err != nil {
			t.Fatal(err)
		}
		cred, err := f.setup.CreateCredential(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		cl, err := f.setup.CreateCluster(ctx, f.cloud, ClusterCreate{Name: name, CredentialID: cred.ID})
		if err != nil {
			t.Fatal(err)
		}
		f.ids = append(f.ids, cl.ID)
	}
	sim.ResetCounts()
	return f
}

// readAll reads ids concurrently with the client under test. With lineUp, the first GET is
// held until every other reader is queued behind it, so the rounds are deterministic.
func (f *shareFixture) readAll(t *testing.T, ids []string, lineUp bool) []*Cluster {
	t.Helper()
	out := make([]*Cluster, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	start := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = f.c.GetCluster(context.Background(), "", ids[i])
		}()
	}
	if lineUp {
		f.gate.arm()
	}
	start(0)
	if lineUp {
		<-f.gate.held
		for i := 1; i < len(ids); i++ {
			start(i)
		}
		f.waitQueued(t, routeAllClusters, len(ids)-1)
		close(f.gate.release)
	} else {
		for i := 1; i < len(ids); i++ {
			start(i)
		}
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("read %s: %v", ids[i], err)
		}
		if out[i].ID != ids[i] {
			t.Fatalf("read %s answered %s", ids[i], out[i].ID)
		}
	}
	return out
}

// waitQueued waits until n readers are queued on the collection (they only queue, so this
// ends as soon as the goroutines have run).
func (f *shareFixture) waitQueued(t *testing.T, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		f.c.share.mu.Lock()
		queued := 0
		if col := f.c.share.collections[path]; col != nil {
			queued = len(col.queue)
		}
		f.c.share.mu.Unlock()
		if queued == n {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("readers never queued: want %d", n)
}

func (f *shareFixture) counts(t *testing.T, want map[string]int) {
	t.Helper()
	got := f.sim.Counts()
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d requests, want %d (all: %v; sent %v)", k, got[k], n, got, f.gate.sent())
		}
	}
	total := 0
	for _, n := range got {
		total += n
	}
	wantTotal := 0
	for _, n := range want {
		wantTotal += n
	}
	if total != wantTotal {
		t.Errorf("%d requests in all, want %d: %v", total, wantTotal, got)
	}
	f.sim.ResetCounts()
}

func TestSharedReadsAFleetCostsTwoRequests(t *testing.T) {
	f := newShareFixture(t, 30, time.Minute)
	f.readAll(t, f.ids, true)
	// The first read alone (a plain GET), then the 29 queued behind it: a fleet, so one
	// listing of the whole collection.
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1, "GET " + routeAllClusters: 1})
	if q := f.gate.sent()[1]; !strings.HasSuffix(q, "/topology/v1/clusters?") {
		t.Errorf("second request %s, want the whole collection", q)
	}

	// Within read_max_age, the listing answers every later read.
	f.readAll(t, f.ids, false)
	f.counts(t, map[string]int{})

	// A write by this client: the next read of that object is its own request; the rest are not.
	cl, err := f.c.GetCluster(context.Background(), "", f.ids[3])
	if err != nil {
		t.Fatal(err)
	}
	cl.Metadata.Labels = append(cl.Metadata.Labels, Label{Name: "team", Value: "blue"})
	if _, err := f.c.UpdateCluster(context.Background(), f.cloud, cl); err != nil {
		t.Fatal(err)
	}
	f.sim.ResetCounts()
	got := f.readAll(t, f.ids, false)
	if !hasLabel(got[3].Metadata.Labels, "team", "blue") {
		t.Errorf("read after the write answered from an older listing: %+v", got[3].Metadata.Labels)
	}
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1})

	// Older than read_max_age: the fleet's next read lists the collection again, once.
	f.c.share.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	f.readAll(t, f.ids[:1], false)
	f.readAll(t, f.ids, false)
	f.counts(t, map[string]int{"GET " + routeAllClusters: 1})
}

func hasLabel(labels []Label, name, value string) bool {
	for _, l := range labels {
		if l.Name == name && l.Value == value {
			return true
		}
	}
	return false
}

func TestSharedReadsFewObjectsUseIDFilter(t *testing.T) {
	f := newShareFixture(t, 6, time.Minute)
	f.readAll(t, f.ids, true)
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1, "GET " + routeAllClusters: 1})
	sent := f.gate.sent()
	if len(sent) != 2 {
		t.Fatalf("requests %v, want two", sent)
	}
	_, query, _ := strings.Cut(sent[1], "?")
	values, _ := url.ParseQuery(query)
	listed, ok := strings.CutPrefix(values.Get("filter"), "id in '")
	got := strings.Split(strings.TrimSuffix(listed, "'"), ",")
	slices.Sort(got)
	want := slices.Clone(f.ids[1:])
	slices.Sort(want)
	if !ok || !slices.Equal(got, want) {
		t.Errorf("second request %s, want filter id in the five queued IDs %v", sent[1], want)
	}
}

func TestSharedReadsConfirmAMissingObjectWithItsOwnGET(t *testing.T) {
	f := newShareFixture(t, 12, time.Minute)
	f.readAll(t, f.ids, true) // the whole collection is now listed
	f.sim.ResetCounts()
	// Removed outside this client: the listing still holds it, so it is answered...
	if err := f.setup.DeleteCluster(context.Background(), f.cloud, f.ids[0]); err != nil {
		t.Fatal(err)
	}
	f.sim.ResetCounts()
	// ...and an ID the listing does not hold is confirmed by its own GET: a 404.
	missing := "0f0e0d0c-0b0a-4909-8807-060504030201"
	_, err := f.c.GetCluster(context.Background(), "", missing)
	if !IsNotFound(err) {
		t.Fatalf("missing object: %v, want a 404", err)
	}
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1})

	// In a batch: the listing of the two IDs holds one; the other is confirmed by a GET.
	f.c.share.now = func() time.Time { return time.Now().Add(2 * time.Minute) }
	f.c.share.mu.Lock()
	f.c.share.collections[routeAllClusters].seen = map[string]struct{}{} // not a fleet any more
	f.c.share.mu.Unlock()
	var wg sync.WaitGroup
	var errGone, errKept error
	wg.Add(2)
	go func() { defer wg.Done(); _, errGone = f.c.GetCluster(context.Background(), "", f.ids[0]) }()
	go func() { defer wg.Done(); _, errKept = f.c.GetCluster(context.Background(), "", f.ids[1]) }()
	wg.Wait()
	if !IsNotFound(errGone) || errKept != nil {
		t.Fatalf("gone: %v (want a 404), kept: %v", errGone, errKept)
	}
	if n := f.sim.Count("GET", routeAnyCluster); n < 1 {
		t.Errorf("the removed cluster was not confirmed by its own GET: %v", f.sim.Counts())
	}
}

func TestSharedReadsNeverSpanAWrite(t *testing.T) {
	f := newShareFixture(t, 12, time.Minute)
	// A listing that starts before a write and ends after it must not answer for the
	// written object: hold the first GET, write while it is held.
	done := make(chan struct{})
	f.gate.arm()
	go func() {
		defer close(done)
		f.readAll(t, f.ids[:1], false)
	}()
	<-f.gate.held
	mc, err := f.c.CreateManagedCluster(context.Background(), ManagedClusterCreate{ID: f.ids[0]})
	if err != nil || mc.ID != f.ids[0] {
		t.Fatalf("manage: %v", err)
	}
	close(f.gate.release)
	<-done
	f.sim.ResetCounts()
	cl, err := f.c.GetCluster(context.Background(), "", f.ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if cl.ManagedState == "unmanaged" {
		t.Errorf("answered from the read that overlapped the write: managedState %q", cl.ManagedState)
	}
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1})
}

func TestSharedReadsOffSendsOneGETPerRead(t *testing.T) {
	f := newShareFixture(t, 12, 0)
	for range 2 {
		f.readAll(t, f.ids, false)
	}
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 24})
}

func TestWaitReadsAreNeverAnsweredFromAnEarlierListing(t *testing.T) {
	f := newShareFixture(t, 12, time.Minute)
	f.readAll(t, f.ids, true)
	f.sim.ResetCounts()
	// A plain read is answered by the listing; a wait's poll is not.
	if _, err := f.c.GetCluster(context.Background(), "", f.ids[5]); err != nil {
		t.Fatal(err)
	}
	f.counts(t, map[string]int{})
	_, err := Wait(context.Background(), Schedule{}, func(ctx context.Context) (*Cluster, error) {
		return f.c.GetCluster(ctx, "", f.ids[5])
	}, ClusterRunning)
	if err != nil {
		t.Fatal(err)
	}
	f.counts(t, map[string]int{"GET " + routeAnyCluster: 1})
}

func TestSharedManagedClusterReads(t *testing.T) {
	f := newShareFixture(t, 12, time.Minute)
	for _, id := range f.ids {
		if _, err := f.setup.CreateManagedCluster(context.Background(), ManagedClusterCreate{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	f.sim.ResetCounts()
	var wg sync.WaitGroup
	start := func(id string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if mc, err := f.c.GetManagedCluster(context.Background(), id); err != nil || mc.ID != id {
				t.Errorf("read %s: %v", id, err)
			}
		}()
	}
	f.gate.arm()
	start(f.ids[0])
	<-f.gate.held
	for _, id := range f.ids[1:] {
		start(id)
	}
	f.waitQueued(t, routeManagedList, len(f.ids)-1)
	close(f.gate.release)
	wg.Wait()
	f.counts(t, map[string]int{"GET " + routeManagedItem: 1, "GET " + routeManagedList: 1})
}

func TestReadsQueuedDuringAListingAreAnsweredByIt(t *testing.T) {
	f := newShareFixture(t, 30, time.Minute)
	f.readAll(t, f.ids[:10], true) // ten distinct reads: a fleet from now on
	f.sim.ResetCounts()
	f.c.share.now = func() time.Time { return time.Now().Add(2 * time.Minute) } // that listing is stale
	f.gate.once = sync.Once{}
	f.gate.held, f.gate.release = make(chan struct{}), make(chan struct{})
	// The next read lists the whole collection; twenty more queue while it is held.
	f.readAll(t, f.ids[10:], true)
	f.counts(t, map[string]int{"GET " + routeAllClusters: 1})
}
