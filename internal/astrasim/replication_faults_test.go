package astrasim

import (
	"bytes"
	"net/http"
	"path/filepath"
	"testing"
)

// TestReplicationRoutesTakeFaults: the generic faults apply to the new routes: a 502
// applies nothing, a lost answer applies the request (a retried POST then meets 409/150,
// nothing duplicated), a concurrent writer makes a conditional PUT fail with 412.
func TestReplicationRoutesTakeFaults(t *testing.T) {
	d := newDR(t, Options{})
	d.sim.AddFault(Fault{Method: http.MethodPost, Route: "/k8s/v1/appMirrors", Kind: FaultBadGateway, Times: 1})
	d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-dr", nil)).problem(40)
	if n := len(d.get("/k8s/v1/appMirrors").items()); n != 0 {
		t.Fatalf("a 502 applied the POST: %d relationships", n)
	}
	d.sim.AddFault(Fault{Method: http.MethodPost, Route: "/k8s/v1/appMirrors", Kind: FaultLostAnswer, Times: 1})
	req, _ := http.NewRequest(http.MethodPost, d.url("/k8s/v1/appMirrors"), bytes.NewReader(mustJSON(d.mirrorBody("1.1", "wp-dr", nil))))
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	if resp, err := d.srv.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("the lost answer arrived")
	}
	items := d.get("/k8s/v1/appMirrors").items()
	if len(items) != 1 {
		t.Fatalf("the lost POST was not applied: %d", len(items))
	}
	d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-dr", nil)).problem(150)
	id := itemField(items, 0, "id")
	for _, kind := range []FaultKind{FaultTooManyRequests, FaultUnavailable} {
		d.sim.AddFault(Fault{Method: http.MethodPut, Route: "/k8s/v1/appMirrors/{appMirror_id}", Kind: kind, Times: 1})
		d.put("/k8s/v1/appMirrors/"+id, mirrorPut("1.1", "failedOver", nil, false)).expect(map[FaultKind]int{FaultTooManyRequests: 429, FaultUnavailable: 503}[kind])
		d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
	}
	etag := d.get("/k8s/v1/appMirrors/" + id).header.Get("ETag")
	d.sim.AddFault(Fault{Method: http.MethodPut, Route: "/k8s/v1/appMirrors/{appMirror_id}", Kind: FaultConcurrentWrite, Times: 1})
	d.doURL(http.MethodPut, d.url("/k8s/v1/appMirrors/"+id), mirrorPut("1.1", "failedOver", nil, false), http.Header{"If-Match": {etag}}).problem(38)
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
	etag = d.get("/k8s/v1/appMirrors/" + id).header.Get("ETag") // read again: the writer's label is in it
	d.doURL(http.MethodPut, d.url("/k8s/v1/appMirrors/"+id), mirrorPut("1.1", "failedOver", nil, false), http.Header{"If-Match": {etag}}).expect(200)
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("failedOver", "warning", "idle")
	d.sim.AddFault(Fault{Method: http.MethodGet, Route: "/topology/v1/storageBackends", Kind: FaultInternal, Times: 1})
	d.get("/topology/v1/storageBackends").problem(34)
	if d.sim.faultsFired() != 6 {
		t.Fatalf("faults fired %d, want 6", d.sim.faultsFired())
	}
}

// TestReplicationPersists: relationships and backends survive SaveState and LoadState.
func TestReplicationPersists(t *testing.T) {
	d := newDR(t, Options{})
	id := d.establish("1.1")
	d.put("/k8s/v1/appMirrors/"+id, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	before := d.get("/k8s/v1/appMirrors/"+id).expectMirror("failedOver", "warning", "idle")
	file := filepath.Join(t.TempDir(), "state.json")
	if err := d.sim.SaveState(file); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{Namespaces: []string{"wp"}})
	if err := e.sim.LoadState(file); err != nil {
		t.Fatal(err)
	}
	after := e.get("/k8s/v1/appMirrors/"+id).expectMirror("failedOver", "warning", "idle")
	if string(after.raw) != string(before.raw) {
		t.Fatalf("reloaded:\n%s\nwas\n%s", after.raw, before.raw)
	}
	if n := len(e.get("/topology/v1/storageBackends").items()); n != 2 {
		t.Fatalf("backends after reload: %d", n)
	}
}
