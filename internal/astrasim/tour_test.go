package astrasim

import (
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// TestRoutesAreTheSpecPaths: the simulator serves exactly the operations of every document.
func TestRoutesAreTheSpecPaths(t *testing.T) {
	for _, release := range apispec.Releases {
		doc, _ := apispec.Load(release)
		var ops []string
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				ops = append(ops, method+" "+strings.TrimPrefix(path, accountPrefix))
			}
		}
		sort.Strings(ops)
		sim, _ := New(Options{Release: release})
		if got := strings.Join(sim.Routes(), "\n"); got != strings.Join(ops, "\n") {
			t.Errorf("%s: routes differ from the document:\n%s\nvs\n%s", release, got, strings.Join(ops, "\n"))
		}
		if len(doc.Paths.Map()) != 54 { // 36, and 18 of identity and access (issue 47)
			t.Errorf("%s has %d paths, want 54", release, len(doc.Paths.Map()))
		}
	}
}

// TestTour walks every operation once, successfully, and checks the counters saw each.
func TestTour(t *testing.T) {
	e := newEnv(t, Options{PutReturnsBody: true})
	seeds := e.sim.Seeds()
	private := seeds.PrivateCloudID
	credID, id := e.addPrivateCluster("tour")
	sc := e.sim.st.storageClassesOf(id)[0].ID
	cl := "/topology/v1/clouds/" + private + "/clusters/" + id
	steps := []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/core/v1/credentials", nil, 200},
		{"GET", "/core/v1/credentials/" + credID, nil, 200},
		{"PUT", "/core/v1/credentials/" + credID, kubeconfigBody("tour", "https://tour.example.com:6443"), 200},
		{"GET", "/topology/v1/clouds", nil, 200},
		{"POST", "/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "tour", "cloudType": "private"}, 201},
		{"GET", "/topology/v1/clouds/" + private, nil, 200},
		{"PUT", "/topology/v1/clouds/" + private, map[string]any{"type": "application/astra-cloud", "version": "1.1"}, 200},
		{"GET", "/topology/v1/clouds/" + private + "/clusters", nil, 200},
		{"GET", cl, nil, 200},
		{"PUT", cl, clusterBody("1.5", nil), 200},
		{"GET", cl + "/storageClasses", nil, 200},
		{"GET", cl + "/storageClasses/" + sc, nil, 200},
		{"GET", "/topology/v1/clusters", nil, 200},
		{"GET", "/topology/v1/clusters/" + id, nil, 200},
		{"PUT", "/topology/v1/clusters/" + id, clusterBody("1.5", map[string]any{"name": "tour-2"}), 200},
		{"GET", "/topology/v1/clusters/" + id + "/storageClasses", nil, 200},
		{"GET", "/topology/v1/clusters/" + id + "/storageClasses/" + sc, nil, 200},
		{"POST", "/topology/v1/managedClusters", map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "id": id}, 201},
		{"GET", "/topology/v1/managedClusters", nil, 200},
		{"GET", "/topology/v1/managedClusters/" + id, nil, 200},
		{"PUT", "/topology/v1/managedClusters/" + id, map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "defaultStorageClass": sc}, 200},
		{"GET", "/topology/v1/managedClusters/" + id + "/storageClasses", nil, 200},
		{"GET", "/topology/v1/managedClusters/" + id + "/storageClasses/" + sc, nil, 200},
		{"GET", "/topology/v1/buckets", nil, 200},
		{"POST", "/topology/v1/buckets", s3BucketBody("tour", seeds.GCP.CredentialID, "tour-backups"), 201},
		{"DELETE", "/topology/v1/managedClusters/" + id, nil, 204},
		{"DELETE", cl, nil, 204},
		{"DELETE", "/core/v1/credentials/" + credID, nil, 204},
		{"DELETE", "/topology/v1/clouds/" + seeds.AWS.CloudID, nil, 204},
	}
	e.sim.ResetCounts()
	split := len(steps) - 4 // before the managed cluster is unmanaged: its apps first
	for _, s := range steps[:split] {
		e.do(s.method, s.path, s.body).expect(s.status)
	}
	e.tourApps(id)
	for _, s := range steps[split:] {
		e.do(s.method, s.path, s.body).expect(s.status)
	}
	// The operations the tour did not reach yet.
	_, id2 := e.addPrivateCluster("tour-3")
	e.del("/topology/v1/clusters/" + id2).expect(204)
	bucket := e.get("/topology/v1/buckets").items()[0].(map[string]any)["id"].(string)
	e.get("/topology/v1/buckets/" + bucket).expect(200)
	e.put("/topology/v1/buckets/"+bucket, map[string]any{"type": "application/astra-bucket", "version": "1.2", "credentialID": seeds.Azure.CredentialID}).expect(200)
	e.del("/topology/v1/buckets/" + bucket).expect(204)
	e.tourIdentity() // identity and access (identity_tour_test.go)
	counts := e.sim.Counts()
	for _, op := range e.sim.Routes() {
		if counts[op] == 0 {
			t.Errorf("the tour never reached %s", op)
		}
	}
	if counts[http.MethodPost+" /core/v1/credentials"] != 1 {
		t.Errorf("POST credentials counted %d", counts[http.MethodPost+" /core/v1/credentials"])
	}
}

// TestFlowOnEveryRelease runs the provider's flow on each release, so every answer is
// checked against that release's own schemas.
func TestFlowOnEveryRelease(t *testing.T) {
	for _, release := range apispec.Releases {
		t.Run(release, func(t *testing.T) {
			e := newEnv(t, Options{Release: release, PutReturnsBody: true})
			seeds := e.sim.Seeds()
			credID, id := e.addPrivateCluster("flow")
			cv, mv := e.sim.newest["cluster"], e.sim.newest["managedCluster"]
			e.put("/topology/v1/clusters/"+id, clusterBody(cv, map[string]any{"name": "flow-2"})).expect(200)
			e.manage(id).expect(201)
			e.manage(seeds.Azure.ClusterID).expect(201)
			e.put("/topology/v1/managedClusters/"+id, map[string]any{"type": "application/astra-managedCluster", "version": mv, "tridentManagedStateDesired": "managed"}).expect(200)
			for _, path := range []string{"/topology/v1/clusters", "/topology/v1/managedClusters", "/topology/v1/clouds", "/core/v1/credentials",
				"/topology/v1/managedClusters/" + id + "/storageClasses", "/topology/v1/clusters?include=id,name,state"} {
				e.get(path).expect(200)
			}
			e.put("/core/v1/credentials/"+credID, kubeconfigBody("flow", "https://flow.example.com:6443")).expect(200)
			e.del("/topology/v1/managedClusters/" + id).expect(204)
			e.del("/topology/v1/managedClusters/" + seeds.Azure.ClusterID).expect(204)
			e.del("/topology/v1/clusters/" + id).expect(204)
			e.del("/core/v1/credentials/" + credID).expect(204)
			e.get("/topology/v1/clusters/" + id).problem(2)
		})
	}
}

// tourApps walks a managed cluster's namespaces, an app and its schedule, and unmanages the app.
func (e *env) tourApps(clusterID string) {
	mc := "/topology/v1/managedClusters/" + clusterID
	e.get(mc + "/namespaces").expect(200)
	e.get(mc + "/namespaces/" + namespaceID(e.sim.st.Clusters[clusterID], "default")).expect(200)
	appID := e.post("/k8s/v2/apps", appBody("tour", clusterID, "default")).expect(201).str("id")
	e.get("/k8s/v2/apps").expect(200)
	e.get("/k8s/v2/apps/" + appID).expect(200)
	e.put("/k8s/v2/apps/"+appID, map[string]any{"type": "application/astra-app", "version": "2.1", "name": "tour-2"}).expect(200)
	sched := "/k8s/v1/apps/" + appID + "/schedules"
	schedID := e.post(sched, scheduleBody("hourly", map[string]any{"minute": "5"})).expect(201).str("id")
	e.get(sched).expect(200)
	e.get(sched + "/" + schedID).expect(200)
	e.put(sched+"/"+schedID, map[string]any{"type": "application/astra-schedule", "version": "1.3", "enabled": "false", "snapshotRetention": "7", "backupRetention": "3"}).expect(200)
	e.del(sched + "/" + schedID).expect(204)
	e.tourDayTwo(appID)
	e.del("/k8s/v2/apps/" + appID).expect(204)
}
