package astrasim

import (
	"net/http"
	"testing"
)

// The concurrent-write fault writes the object just before the request: a PUT conditional on
// the GET before it fails with 412 problem 38, the object holds the writer's change, and the
// conditional PUTs are counted.
func TestConcurrentWriteFault(t *testing.T) {
	e := newEnv(t, Options{})
	_, id := e.addPrivateCluster("concurrent")
	seeds := e.sim.Seeds()
	cloudID := seeds.PrivateCloudID
	appID := e.readyApp("concurrent-hooks")
	sourceID := e.hookSource("concurrent-script")
	hookID := e.post("/k8s/v1/apps/"+appID+"/executionHooks", hookBody("concurrent-hook", appID, sourceID)).expect(201).str("id")
	cases := []struct {
		route, path string
		body        map[string]any
		changed     func() string // the field the writer changes, as a GET shows it
	}{
		{
			route: "/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}", path: "/topology/v1/clouds/" + cloudID + "/clusters/" + id,
			body:    clusterBody("1.5", map[string]any{"name": "renamed"}),
			changed: func() string { return e.get("/topology/v1/clusters/" + id).str("tridentManagedStateDesired") },
		},
		{
			route: "/topology/v1/clouds/{cloud_id}", path: "/topology/v1/clouds/" + seeds.GCP.CloudID,
			body: map[string]any{"type": "application/astra-cloud", "version": "1.0"},
			changed: func() string {
				return labelValue(e.get("/topology/v1/clouds/"+seeds.GCP.CloudID), concurrentWriterLabel)
			},
		},
		{
			route: "/core/v1/credentials/{credential_id}", path: "/core/v1/credentials/" + seeds.GCP.CredentialID,
			body: map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "n", "keyStore": map[string]any{"k": "SGkh"}},
			changed: func() string {
				return labelValue(e.get("/core/v1/credentials/"+seeds.GCP.CredentialID), concurrentWriterLabel)
			},
		},
		{
			route: "/core/v1/hookSources/{hookSource_id}", path: "/core/v1/hookSources/" + sourceID,
			body: hookSourceBody("concurrent-script", testScript),
			changed: func() string {
				return labelValue(e.get("/core/v1/hookSources/"+sourceID), concurrentWriterLabel)
			},
		},
		{
			// The app-scoped path names the app too: the hook is written, not the app.
			route: "/k8s/v1/apps/{app_id}/executionHooks/{executionHook_id}", path: "/k8s/v1/apps/" + appID + "/executionHooks/" + hookID,
			body: hookBody("concurrent-hook", appID, sourceID),
			changed: func() string {
				return labelValue(e.get("/core/v1/executionHooks/"+hookID), concurrentWriterLabel)
			},
		},
	}
	for _, tc := range cases {
		e.sim.ClearFaults()
		e.sim.ResetCounts()
		fault, err := ParseFault("PUT:" + tc.route + ":concurrent-write:times=1")
		if err != nil {
			t.Fatal(err)
		}
		e.sim.AddFault(fault)
		before := tc.changed()
		read := e.get(tc.path).expect(200)
		ifMatch := http.Header{"If-Match": {read.header.Get("ETag")}}
		e.doURL(http.MethodPut, e.url(tc.path), mustJSON(tc.body), ifMatch).problem(38)
		if n := e.sim.Fired(http.MethodPut, tc.route, FaultConcurrentWrite); n != 1 {
			t.Errorf("%s: fired %d times, want 1", tc.route, n)
		}
		if after := tc.changed(); after == before {
			t.Errorf("%s: the writer changed nothing: %q", tc.route, after)
		}
		// Read again, PUT again: the fault is spent, the PUT applies.
		ifMatch = http.Header{"If-Match": {e.get(tc.path).header.Get("ETag")}}
		e.doURL(http.MethodPut, e.url(tc.path), mustJSON(tc.body), ifMatch).expect(204)
		if n, c := e.sim.Count(http.MethodPut, tc.route), e.sim.CountConditional(http.MethodPut, tc.route); n != 2 || c != 2 {
			t.Errorf("%s: %d PUTs, %d conditional; want 2 and 2", tc.route, n, c)
		}
	}
	if v := labelValue(e.get("/k8s/v2/apps/"+appID), concurrentWriterLabel); v != "" {
		t.Errorf("the writer of the app-scoped hook path labelled the app (%q)", v)
	}
}

func TestNoETagOption(t *testing.T) {
	e := newEnv(t, Options{NoETag: true})
	r := e.get("/topology/v1/clouds/" + e.sim.Seeds().GCP.CloudID).expect(200)
	if tag := r.header.Get("ETag"); tag != "" {
		t.Errorf("ETag %q with NoETag", tag)
	}
	// If-Match is still honoured.
	stale := http.Header{"If-Match": {`"0123456789abcdef0123456789abcdef"`}}
	e.doURL(http.MethodPut, e.url("/topology/v1/clouds/"+e.sim.Seeds().GCP.CloudID),
		mustJSON(map[string]any{"type": "application/astra-cloud", "version": "1.0"}), stale).problem(38)
}

func labelValue(r *result, name string) string {
	meta, _ := r.body["metadata"].(map[string]any)
	labels, _ := meta["labels"].([]any)
	for _, l := range labels {
		if m, _ := l.(map[string]any); m["name"] == name {
			v, _ := m["value"].(string)
			return v
		}
	}
	return ""
}
