package astrasim

import (
	"strings"
	"testing"
	"time"
)

// appBody is the POST body of an app as actoolkit's manage app sends it (version 2.1).
func appBody(name, clusterID string, namespaces ...string) map[string]any {
	ns := []any{}
	for _, n := range namespaces {
		ns = append(ns, map[string]any{"namespace": n, "labelSelectors": []any{}})
	}
	return map[string]any{"type": "application/astra-app", "version": "2.1", "name": name, "clusterID": clusterID, "namespaceScopedResources": ns}
}

// scheduleBody is a schedule POST body of a granularity (version 1.3), retentions 7 and 3.
func scheduleBody(granularity string, fields map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-schedule", "version": "1.3", "name": granularity + " schedule",
		"granularity": granularity, "snapshotRetention": "7", "backupRetention": "3"}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

// managedCluster adds and manages a private cluster.
func (e *env) managedCluster(name string) string {
	_, id := e.addPrivateCluster(name)
	e.manage(id).expect(201)
	return id
}

func TestAppLifecycleAndInUse(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("apps")
	r := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201)
	appID := r.str("id")
	// As NetApp's toolkit docs show the service answering: discovering, no namespaces yet,
	// the collection time set, and an empty labelSelectors left out.
	if r.str("state") != "discovering" || r.str("protectionState") != "none" || r.str("clusterName") != "apps" ||
		!strings.Contains(string(r.raw), `"namespaces":[]`) || r.str("lastResourceCollectionTimestamp") == "" ||
		strings.Contains(string(r.raw), "labelSelectors") {
		t.Fatalf("new app: %s", r.raw)
	}
	if got := e.get("/k8s/v2/apps/" + appID); got.str("state") != "ready" || !strings.Contains(string(got.raw), `"namespaces":["default"]`) {
		t.Fatalf("the app once discovered: %s", got.raw)
	}
	if got := e.get("/topology/v1/managedClusters/" + id).str("inUse"); got != "true" {
		t.Fatalf("inUse = %q with an app", got)
	}
	reason := e.del("/topology/v1/managedClusters/"+id).problem(10).field("invalidFields", "inUse")
	if !strings.Contains(reason, "(web)") {
		t.Fatalf("the refusal does not name the app: %s", reason)
	}
	e.del("/k8s/v2/apps/" + appID).expect(204)
	e.get("/k8s/v2/apps/" + appID).problem(2)
	if got := e.get("/topology/v1/managedClusters/" + id).str("inUse"); got != "false" {
		t.Fatalf("inUse = %q after the app went", got)
	}
	e.del("/topology/v1/managedClusters/" + id).expect(204)
}

func TestAppPostProblems(t *testing.T) {
	e := newEnv(t, Options{})
	_, unmanaged := e.addPrivateCluster("plain")
	id := e.managedCluster("apps")
	e.post("/k8s/v2/apps", appBody("web", unmanaged, "default")).problem(9).field("invalidFields", "clusterID")
	if reason := e.post("/k8s/v2/apps", appBody("web", id, "nope")).problem(122).field("invalidFields", "namespaceScopedResources[0].namespace"); !strings.Contains(reason, "no namespace nope") {
		t.Errorf("reason %q", reason)
	}
	e.post("/k8s/v2/apps", appBody("web", id)).problem(9)
	bad := appBody("web", id, "default")
	bad["namespaceScopedResources"] = []any{map[string]any{"namespace": "default", "labelSelectors": []any{"app in mysql"}}}
	e.post("/k8s/v2/apps", bad).problem(9).field("invalidFields", "namespaceScopedResources[0].labelSelectors[0]")
	gvk := appBody("web", id, "default")
	gvk["clusterScopedResources"] = []any{map[string]any{"GVK": map[string]any{"group": "", "version": "", "kind": "ClusterRole"}}}
	e.post("/k8s/v2/apps", gvk).problem(147)
	first := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	if dup := e.post("/k8s/v2/apps", appBody("web", id, "default")).problem(121); !strings.Contains(dup.str("detail"), first) {
		t.Errorf("the duplicate's problem does not name the app that has the name: %s", dup.raw)
	}
}

func TestAppDiscoveryDelayAndFailure(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, Options{Delays: Delays{App: 10 * time.Second}, Now: func() time.Time { return now }})
	id := e.managedCluster("slow")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	for _, step := range []struct {
		after time.Duration
		state string
	}{{0, "discovering"}, {9 * time.Second, "discovering"}, {time.Second, "ready"}} {
		now = now.Add(step.after)
		if got := e.get("/k8s/v2/apps/" + appID).str("state"); got != step.state {
			t.Fatalf("after %s: state %q, want %q", step.after, got, step.state)
		}
	}
	pending := e.post("/k8s/v2/apps", appBody("db", id, "default")).expect(201).str("id")
	e.del("/k8s/v2/apps/" + pending).problem(112)
	e.post("/k8s/v1/apps/"+pending+"/schedules", scheduleBody("hourly", nil)).problem(154)
	if err := e.sim.FailApp(appID, "discovery failed"); err != nil {
		t.Fatal(err)
	}
	r := e.get("/k8s/v2/apps/" + appID)
	if r.str("state") != "failed" || !strings.Contains(string(r.raw), "discovery failed") {
		t.Fatalf("failed app: %s", r.raw)
	}
}

func TestProtectionStateFollowsSchedules(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("prot")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	sched := "/k8s/v1/apps/" + appID + "/schedules"
	state := func() string { return e.get("/k8s/v2/apps/" + appID).str("protectionState") }
	schedID := e.post(sched, scheduleBody("daily", map[string]any{"minute": "15", "hour": "2"})).expect(201).str("id")
	if got := state(); got != "partial" {
		t.Fatalf("with an enabled policy and no backup yet: %q", got)
	}
	e.put(sched+"/"+schedID, map[string]any{"type": "application/astra-schedule", "version": "1.3", "enabled": "false",
		"minute": "15", "hour": "2", "snapshotRetention": "7", "backupRetention": "3"}).expect(204)
	if got := state(); got != "none" {
		t.Fatalf("with every policy disabled and nothing taken: %q", got)
	}
	e.del(sched + "/" + schedID).expect(204)
	if got := state(); got != "none" {
		t.Fatalf("without a policy: %q", got)
	}
	// A default storage class that cannot snapshot puts the app at risk.
	c := e.sim.st.Clusters[id]
	for _, sc := range e.sim.st.storageClassesOf(id) {
		if sc.Provisioner == "rancher.io/local-path" {
			e.sim.setDefaultStorageClass(c, sc.ID)
		}
	}
	if got := state(); got != "atRisk" {
		t.Fatalf("default storage class without snapshots: %q", got)
	}
}

func TestScheduleGranularityRules(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("rules")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	sched := "/k8s/v1/apps/" + appID + "/schedules"
	cases := []struct {
		granularity string
		fields      map[string]any
		badField    string
	}{
		{"hourly", map[string]any{"minute": "75"}, "minute"},
		{"hourly", map[string]any{"minute": "9x"}, "minute"},
		{"hourly", map[string]any{"hour": "3"}, "hour"},
		{"daily", map[string]any{"minute": "0"}, "hour"},
		{"daily", map[string]any{"hour": "24"}, "hour"},
		{"weekly", map[string]any{"hour": "1"}, "dayOfWeek"},
		{"monthly", map[string]any{"hour": "1", "dayOfMonth": "1", "dayOfWeek": "2"}, "dayOfWeek"},
		{"monthly", map[string]any{"hour": "1", "dayOfMonth": "32"}, "dayOfMonth"},
	}
	for _, c := range cases {
		e.post(sched, scheduleBody(c.granularity, c.fields)).problem(9).field("invalidFields", c.badField)
	}
	// dayOfWeek's published pattern is anchored: the schema refuses 8 (problem 8).
	e.post(sched, scheduleBody("weekly", map[string]any{"hour": "1", "dayOfWeek": "8"})).problem(8)
	// actoolkit's "*" for the unused fields is taken, and answered as absent.
	r := e.post(sched, scheduleBody("hourly", map[string]any{"minute": "5", "hour": "*", "dayOfWeek": "*", "dayOfMonth": "*"})).expect(201)
	if r.str("hour") != "" || r.str("minute") != "5" {
		t.Fatalf("hourly with stars: %s", r.raw)
	}
	e.post(sched, scheduleBody("hourly", nil)).problem(132)
	e.post(sched, scheduleBody("monthly", map[string]any{"hour": "1", "dayOfMonth": "31"})).expect(201)
	e.post(sched, scheduleBody("weekly", map[string]any{"hour": "1", "dayOfWeek": "0", "replicate": "true"})).problem(153)
	// A PUT to another granularity drops the fields the new one does not use; a PUT replaces
	// the schedule, so a used field left out is missing.
	weekly := e.post(sched, scheduleBody("weekly", map[string]any{"hour": "1", "dayOfWeek": "7"})).expect(201).str("id")
	toDaily := map[string]any{"type": "application/astra-schedule", "version": "1.3", "granularity": "daily", "snapshotRetention": "7", "backupRetention": "3"}
	e.put(sched+"/"+weekly, toDaily).problem(9).field("invalidFields", "hour")
	toDaily["hour"], toDaily["dayOfWeek"] = "1", nil // null for an unused field, as actoolkit's copy sends it
	e.put(sched+"/"+weekly, toDaily).expect(204)
	if got := e.get(sched + "/" + weekly); got.str("dayOfWeek") != "" || got.str("hour") != "1" || got.str("version") != "1.3" {
		t.Fatalf("weekly made daily: %s", got.raw)
	}
}

// A schedule POSTed at 1.2 (astraSDK's version) is answered at 1.3, as the service does.
func TestScheduleAnsweredAtTheNewestVersion(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("v12")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	body := scheduleBody("hourly", nil)
	body["version"] = "1.2"
	if got := e.post("/k8s/v1/apps/"+appID+"/schedules", body).expect(201).str("version"); got != "1.3" {
		t.Fatalf("version %q, want 1.3", got)
	}
}

// A PUT replaces the app or the schedule (replaceOnPut): a member left out is gone, except
// those the object cannot do without, which the spec's own examples leave out.
func TestPutReplacesWhatItLeavesOut(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("replace")
	body := appBody("web", id, "default")
	body["metadata"] = map[string]any{"labels": []any{map[string]any{"name": "team", "value": "a"}}}
	body["clusterScopedResources"] = []any{map[string]any{"GVK": map[string]any{"group": "rbac.authorization.k8s.io", "version": "v1", "kind": "ClusterRole"}, "labelSelectors": []any{}}}
	appID := e.post("/k8s/v2/apps", body).expect(201).str("id")
	app := "/k8s/v2/apps/" + appID
	// A rename alone (the spec's example): the cluster-scoped resources left out would go,
	// which cannot happen in place.
	e.put(app, map[string]any{"type": "application/astra-app", "version": "2.1", "name": "web-2"}).problem(10).field("invalidFields", "clusterScopedResources")
	// The whole app as read, renamed, without its labels: renamed, and the user labels are gone.
	whole := e.get(app).body
	delete(whole, "links")
	whole["name"] = "web-2"
	delete(whole, "metadata")
	e.put(app, whole).expect(204)
	if got := e.get(app); got.str("name") != "web-2" || strings.Contains(string(got.raw), `"team"`) {
		t.Fatalf("after the PUT: %s", got.raw)
	}
	// A restore is never an ordinary PUT.
	whole["snapshotID"] = "00000000-0000-4000-8000-000000000001"
	e.put(app, whole).problem(9).field("invalidFields", "snapshotID")

	sched := "/k8s/v1/apps/" + appID + "/schedules"
	bucket := e.post("/topology/v1/buckets", s3BucketBody("replace", e.s3Credential("replace-key"), "replace")).expect(201).str("id")
	daily := scheduleBody("daily", map[string]any{"hour": "2", "bucketID": bucket,
		"metadata": map[string]any{"labels": []any{map[string]any{"name": "owner", "value": "ops"}}}})
	schedID := e.post(sched, daily).expect(201).str("id")
	// The spec's example: no name, no bucket, no labels. The name stays; the bucket and the
	// labels go.
	e.put(sched+"/"+schedID, map[string]any{"type": "application/astra-schedule", "version": "1.3", "granularity": "daily",
		"minute": "0", "hour": "0", "snapshotRetention": "12", "backupRetention": "12"}).expect(204)
	if got := e.get(sched + "/" + schedID); got.str("name") != "daily schedule" || got.str("bucketID") != "" || strings.Contains(string(got.raw), "owner") {
		t.Fatalf("after a partial PUT: %s", got.raw)
	}
}

func TestNamespacesOfAManagedCluster(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	id := e.managedCluster("ns")
	items := e.get("/topology/v1/managedClusters/" + id + "/namespaces").expect(200).items()
	if len(items) != len(defaultNamespaces()) || itemField(items, 0, "name") != "default" {
		t.Fatalf("namespaces: %v", items)
	}
	nsID := itemField(items, 0, "id")
	if got := e.get("/topology/v1/managedClusters/" + id + "/namespaces/" + nsID).expect(200).str("name"); got != "default" {
		t.Fatalf("namespace by ID: %q", got)
	}
	_, unmanaged := e.addPrivateCluster("plain")
	e.get("/topology/v1/managedClusters/" + unmanaged + "/namespaces").problem(2)
}

func TestAppsSurviveTheStateFile(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.managedCluster("persist")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	e.post("/k8s/v1/apps/"+appID+"/schedules", scheduleBody("hourly", nil)).expect(201)
	path := t.TempDir() + "/state.json"
	if err := e.sim.SaveState(path); err != nil {
		t.Fatal(err)
	}
	e.del("/k8s/v2/apps/" + appID).expect(204)
	if err := e.sim.LoadState(path); err != nil {
		t.Fatal(err)
	}
	if got := e.get("/k8s/v2/apps/" + appID).expect(200).str("protectionState"); got != "partial" {
		t.Fatalf("after reload: %q", got)
	}
	if got := e.get("/topology/v1/managedClusters/" + id).str("inUse"); got != "true" {
		t.Fatalf("inUse after reload: %q", got)
	}
}

// TestPoliciesFollowTheirBucket: a schedule names a bucket of the account (problem 9
// otherwise), and its app is "protected" only once a backup into it has completed.
func TestPoliciesFollowTheirBucket(t *testing.T) {
	clock := newClock()
	e := newEnv(t, Options{Now: clock.Now, Delays: Delays{Bucket: time.Minute}})
	id := e.managedCluster("bucketed")
	appID := e.post("/k8s/v2/apps", appBody("web", id, "default")).expect(201).str("id")
	sched := "/k8s/v1/apps/" + appID + "/schedules"
	state := func() string { return e.get("/k8s/v2/apps/" + appID).str("protectionState") }
	daily := func(bucketID string) map[string]any {
		return scheduleBody("daily", map[string]any{"minute": "0", "hour": "2", "bucketID": bucketID})
	}

	e.post(sched, daily("00000000-0000-4000-8000-00000000b0c4")).problem(9)
	bucketID := e.post("/topology/v1/buckets", s3BucketBody("backups", e.s3Credential("key"), "backups")).expect(201).str("id")
	e.post(sched, daily(bucketID)).expect(201)
	if got := state(); got != "partial" {
		t.Errorf("backing up into a pending bucket: %q, want partial", got)
	}
	clock.advance(2 * time.Minute)
	if got := e.get("/topology/v1/buckets/" + bucketID).str("state"); got != "available" {
		t.Fatalf("the bucket is %q after its delay", got)
	}
	if got := state(); got != "partial" {
		t.Errorf("before the policy's first backup: %q, want partial", got)
	}
	clock.advance(15 * time.Hour) // past 02:00: the daily policy backs up
	if got := state(); got != "protected" {
		t.Errorf("after a backup into an available bucket: %q, want protected", got)
	}
}

// Options.Namespaces gives every cluster the workloads' namespaces a module protects, and
// AddNamespace one more on one cluster; an app can then protect them.
func TestNamespacesToProtect(t *testing.T) {
	e := newEnv(t, Options{Namespaces: []string{"shop", "db"}})
	id := e.managedCluster("ns-extra")
	e.post("/k8s/v2/apps", appBody("shop", id, "shop", "db")).expect(201)
	e.post("/k8s/v2/apps", appBody("late", id, "late")).problem(122)
	if err := e.sim.AddNamespace(id, "late"); err != nil {
		t.Fatal(err)
	}
	e.post("/k8s/v2/apps", appBody("late", id, "late")).expect(201)
	if err := e.sim.AddNamespace(id, "Not_A_Label"); err == nil {
		t.Fatal("a namespace that is no DNS-1123 label was added")
	}
	if _, err := New(Options{Namespaces: []string{"Bad_Name"}}); err == nil || !strings.Contains(err.Error(), `namespace "Bad_Name" is not a DNS-1123 label`) {
		t.Fatalf("New with a bad namespace: %v", err)
	}
}
