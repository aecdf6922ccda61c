package astrasim

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// specExample is one requestBody example of a published document.
type specExample struct {
	method, template string
	body             map[string]any
}

func specExamples(t *testing.T, release string) []specExample {
	t.Helper()
	doc, err := apispec.Load(release)
	if err != nil {
		t.Fatal(err)
	}
	var out []specExample
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value == nil {
				continue
			}
			for _, mt := range op.RequestBody.Value.Content {
				ex, ok := mt.Example.(map[string]any)
				if !ok {
					t.Fatalf("%s %s: example is %T", method, path, mt.Example)
				}
				// Work on a deep copy: the document is shared.
				var body map[string]any
				_ = json.Unmarshal(mustJSON(ex), &body)
				out = append(out, specExample{method: method, template: strings.TrimPrefix(path, accountPrefix), body: body})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].method+out[i].template < out[j].method+out[j].template })
	return out
}

// bind points an example at objects that exist: its IDs are the spec authors' and name
// nothing in a fresh simulator. Only IDs change; every other field is the example's.
func (e *env) bind(ex specExample) (string, map[string]any) {
	e.t.Helper()
	seeds := e.sim.Seeds()
	body := ex.body
	path := ex.template
	set := func(param, id string) { path = strings.ReplaceAll(path, "{"+param+"}", id) }
	if p, b, ok := e.bindIdentity(ex); ok { // identity and access (identity_helpers_test.go)
		return p, b
	}
	switch {
	case ex.template == "/core/v1/credentials/{credential_id}":
		created := e.post("/core/v1/credentials", map[string]any{
			"type": "application/astra-credential", "version": "1.1", "name": "to-update", "keyStore": map[string]any{"privKey": "SGkh"},
		}).expect(201)
		set("credential_id", created.str("id"))
	case ex.template == "/topology/v1/clouds":
		body["credentialID"] = seeds.GCP.CredentialID
	case ex.template == "/topology/v1/clouds/{cloud_id}":
		set("cloud_id", seeds.PrivateCloudID)
	case ex.template == "/topology/v1/clouds/{cloud_id}/clusters":
		set("cloud_id", seeds.PrivateCloudID)
		body["credentialID"] = e.post("/core/v1/credentials", kubeconfigBody("example", "https://example.example.com")).expect(201).str("id")
	case strings.HasSuffix(ex.template, "/clusters/{cluster_id}"):
		_, id := e.addPrivateCluster("to-update")
		set("cloud_id", seeds.PrivateCloudID)
		set("cluster_id", id)
	case ex.template == "/topology/v1/buckets":
		body["credentialID"] = seeds.GCP.CredentialID
	case ex.template == "/topology/v1/buckets/{bucket_id}":
		set("bucket_id", e.post("/topology/v1/buckets", s3BucketBody("to-update", e.s3Credential("key"), "to-update")).expect(201).str("id"))
	case ex.template == "/topology/v1/managedClusters":
		_, id := e.addPrivateCluster("to-manage")
		body["id"] = id
		body["defaultStorageClass"] = e.sim.st.storageClassesOf(id)[1].ID
	case ex.template == "/topology/v1/managedClusters/{managedCluster_id}":
		_, id := e.addPrivateCluster("managed")
		e.manage(id).expect(201)
		set("managedCluster_id", id)
		body["defaultStorageClass"] = e.sim.st.storageClassesOf(id)[2].ID
	case ex.template == "/k8s/v2/apps":
		// The example manages namespace "production": the cluster gets one.
		id := e.managedCluster("apps")
		e.sim.st.Clusters[id].Namespaces = append(e.sim.st.Clusters[id].Namespaces, "production")
		body["clusterID"] = id
	case strings.HasPrefix(ex.template, "/k8s/"), strings.HasPrefix(ex.template, "/core/v1/executionHooks"):
		id := e.managedCluster("apps")
		appID := e.post("/k8s/v2/apps", appBody("example", id, "default")).expect(201).str("id")
		set("app_id", appID)
		switch {
		case strings.HasSuffix(ex.template, "{schedule_id}"):
			set("schedule_id", e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("monthly", map[string]any{"hour": "1", "dayOfMonth": "1"})).expect(201).str("id"))
		case strings.HasSuffix(ex.template, "/appBackups"):
			// The example names no bucket: the account needs one to fall back on.
			e.post("/topology/v1/buckets", s3BucketBody("backups", e.s3Credential("key"), "backups")).expect(201)
		case strings.HasSuffix(ex.template, "/executionHooks"):
			body["appID"] = appID
			body["hookSourceID"] = e.hookSource("example")
		case strings.HasSuffix(ex.template, "{executionHook_id}"):
			set("executionHook_id", e.post("/k8s/v1/apps/"+appID+"/executionHooks", hookBody("example", appID, e.hookSource("example"))).expect(201).str("id"))
		}
	case ex.template == "/core/v1/hookSources/{hookSource_id}":
		set("hookSource_id", e.hookSource("to-update"))
	}
	return path, body
}

// TestSpecExamplesAreAccepted sends every requestBody example of every published
// document to a simulator of that release.
func TestSpecExamplesAreAccepted(t *testing.T) {
	total := 0
	for _, release := range apispec.Releases {
		for _, ex := range specExamples(t, release) {
			t.Run(release+" "+ex.method+" "+ex.template, func(t *testing.T) {
				e := newEnv(t, Options{Release: release})
				path, body := e.bind(ex)
				want := http.StatusCreated
				if ex.method == http.MethodPut {
					want = http.StatusNoContent
				}
				if n := e.identityRefused(ex); n != 0 {
					e.do(ex.method, path, body).problem(n)
					return
				}
				e.do(ex.method, path, body).expect(want)
			})
			total++
		}
	}
	if total != 5*36 {
		t.Errorf("walked %d examples, want 180 (36 per document, 13 of them identity and access)", total)
	}
}

// TestBrokenExamplesAreRefused breaks every example in the ways a client can, and
// checks the problem the service answers for each.
func TestBrokenExamplesAreRefused(t *testing.T) {
	breakers := []struct {
		name    string
		problem int
		mutate  func(map[string]any) any
	}{
		{"truncated JSON", 7, func(b map[string]any) any { s := string(mustJSON(b)); return s[:len(s)-1] }},
		{"unknown field", 8, func(b map[string]any) any { b["bogus"] = true; return b }},
		{"unknown version", 8, func(b map[string]any) any { b["version"] = "0.9"; return b }},
		{"no type", 8, func(b map[string]any) any { delete(b, "type"); return b }},
		{"wrong type", 8, func(b map[string]any) any { b["type"] = "application/astra-app"; return b }},
		{"version as number", 8, func(b map[string]any) any { b["version"] = 1.5; return b }},
	}
	for _, release := range []string{"22.11", "23.07", "24.02"} {
		for _, ex := range specExamples(t, release) {
			for _, br := range breakers {
				t.Run(release+" "+ex.method+" "+ex.template+" "+br.name, func(t *testing.T) {
					e := newEnv(t, Options{Release: release})
					path, body := e.bind(ex)
					before := e.sim.Count(ex.method, ex.template)
					want := br.problem
					if n := e.identityRefused(ex); n == 1 || n == 2 {
						want = n // no such group: found missing before the body is read
					}
					e.do(ex.method, path, br.mutate(body)).problem(want)
					if e.sim.Count(ex.method, ex.template) != before+1 {
						t.Error("the refused request was not counted")
					}
				})
			}
		}
	}
}

// TestBrokenExtendedValidation: variants that pass the schema but break the rules the
// spec states in prose.
func TestBrokenExtendedValidation(t *testing.T) {
	for _, release := range []string{"23.07", "24.02"} {
		e := newEnv(t, Options{Release: release})
		relay := "relayV1"
		if release == "24.02" {
			relay = "connectorV2"
		}
		v := e.sim.newest["cluster"]
		private := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
		cred := e.post("/core/v1/credentials", kubeconfigBody("ext", "https://ext.example.com")).expect(201).str("id")
		e.post(private, clusterBody(v, map[string]any{"name": "GKE-22"})).problem(9)
		e.post(private, clusterBody(v, map[string]any{"credentialID": cred, "privateRouteID": "r", "connectorCapabilities": []any{relay}})).problem(165)
		e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "GKE", "cloudType": "gcp"}).problem(9)
		e.post("/topology/v1/clouds/"+e.sim.Seeds().GCP.CloudID+"/clusters", clusterBody(v, map[string]any{"credentialID": cred})).problem(93)
		kc := kubeconfigBody("two", "https://two.example.com")
		kc["keyStore"] = map[string]any{"base64": "bm90IGpzb24=", "extra": "SGkh"}
		e.post("/core/v1/credentials", kc).problem(9)
	}
}
