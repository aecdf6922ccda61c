package astrasim

import (
	"strings"
	"testing"
)

// TestAppMirrorPreconditions: each refused create answers its problem and creates nothing.
func TestAppMirrorPreconditions(t *testing.T) {
	d := newDR(t, Options{Release: "24.02"})
	other := d.managedCluster("other")
	_, unmanaged := d.addPrivateCluster("unmanaged")
	busy := d.post("/k8s/v2/apps", appBody("busy", d.dst, "kube-public")).expect(201).str("id")
	d.get("/k8s/v2/apps/" + busy)
	cases := []struct {
		name    string
		extra   map[string]any
		problem int
		field   string
		reason  string
	}{
		{"stateDesired failedOver", map[string]any{"stateDesired": "failedOver"}, 9, "stateDesired", "stateDesired established"},
		{"a destinationAppID (not in the POST schema)", map[string]any{"destinationAppID": busy}, 8, "", ""},
		{"an unknown source app", map[string]any{"sourceAppID": other}, 117, "sourceAppID", "no app"},
		{"a sourceClusterID (read-only, not in the POST schema)", map[string]any{"sourceClusterID": d.src}, 8, "", ""},
		{"an unmanaged destination", map[string]any{"destinationClusterID": unmanaged}, 9, "destinationClusterID", "no managed cluster"},
		{"the source's own cluster without roles", map[string]any{"destinationClusterID": d.src}, 9, "destinationClusterID", "role"},
		{"one mapping item", map[string]any{"namespaceMapping": []any{map[string]any{"clusterID": d.dst, "namespaces": []any{"x"}}}}, 9, "namespaceMapping", "one for each cluster"},
		{"a mapping missing a source namespace", map[string]any{"namespaceMapping": []any{
			map[string]any{"clusterID": d.src, "namespaces": []any{"default"}}, map[string]any{"clusterID": d.dst, "namespaces": []any{"x"}}}}, 9, "namespaceMapping", "source app's namespaces: wp"},
		{"a destination namespace holding a managed app", map[string]any{"namespaceMapping": []any{
			map[string]any{"clusterID": d.src, "namespaces": []any{"wp"}}, map[string]any{"clusterID": d.dst, "namespaces": []any{"kube-public"}}}}, 123, "namespaceMapping", "holds the managed app busy"},
		{"an unknown storage class", map[string]any{"storageClasses": []any{map[string]any{"clusterID": d.dst, "storageClassName": "gold"}}}, 118, "storageClasses", "no storage class gold"},
		{"a storage class not on ONTAP", map[string]any{"storageClasses": []any{map[string]any{"clusterID": d.dst, "storageClassName": "local-path"}}}, 118, "storageClasses", "not provisioned by Trident"},
		{"a storage class item for a third cluster", map[string]any{"storageClasses": []any{map[string]any{"clusterID": other, "storageClassName": "ontap-gold"}}}, 9, "storageClasses[0].clusterID", "source or the destination"},
	}
	for _, c := range cases {
		r := d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-dr", c.extra)).problem(c.problem)
		if c.field == "" {
			continue
		}
		if got := r.field("invalidFields", c.field); !strings.Contains(got, c.reason) {
			t.Errorf("%s: reason %q, want it to say %q", c.name, got, c.reason)
		}
	}
	if n := len(d.get("/k8s/v1/appMirrors").items()); n != 0 {
		t.Fatalf("refused creates left %d relationships", n)
	}
	if d.sim.st.Clusters[d.dst].AppIDs[0] != busy || len(d.sim.st.Clusters[d.dst].AppIDs) != 1 {
		t.Fatalf("refused creates left apps on the destination: %v", d.sim.st.Clusters[d.dst].AppIDs)
	}
	// An existing namespace without a managed app is taken (ACC-DOCS); the app then takes
	// part in a relationship, so a second one is 409/150, and so is mirroring the copy.
	id := d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "default", nil)).expect(201).str("id")
	if f := d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-2", nil)).problem(150).field("invalidFields", "sourceAppID"); !strings.Contains(f, id) {
		t.Fatalf("a second relationship: %s", f)
	}
	dest := d.get("/k8s/v1/appMirrors/" + id).str("destinationAppID")
	d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "wp-3", map[string]any{"sourceAppID": dest, "destinationClusterID": other,
		"namespaceMapping": nil, "storageClasses": nil})).problem(150)
}

// TestAppMirrorSourceNotReady: replication starts from a ready app (409/112).
func TestAppMirrorSourceNotReady(t *testing.T) {
	d := newDR(t, Options{Delays: Delays{App: 1 << 40}})
	app := d.post("/k8s/v2/apps", appBody("slow", d.src, "default")).expect(201).str("id")
	d.post("/k8s/v1/appMirrors", d.mirrorBody("1.1", "x", map[string]any{"sourceAppID": app, "namespaceMapping": nil})).problem(112)
}

// TestAppMirrorNeedsONTAP: a cluster named non-ONTAP has no storage backend, and a
// relationship to or from it is "Replication not supported" (409/150; 22.11: 409/10).
func TestAppMirrorNeedsONTAP(t *testing.T) {
	for release, want := range map[string]int{"24.02": 150, "23.05": 150, "22.11": 10} {
		d := newDR(t, Options{Release: release, NonONTAPClusters: []string{"dr"}})
		version := d.sim.newest["appMirror"]
		f := d.post("/k8s/v1/appMirrors", d.mirrorBody(version, "wp-dr", nil)).problem(want).field("invalidFields", "destinationClusterID")
		if !strings.Contains(f, "dr has no ONTAP storage backend") {
			t.Errorf("%s: %s", release, f)
		}
	}
}

// TestAppMirrorSameCluster: same-cluster replication takes appMirror 1.1 with roles and
// other namespaces; the destination app is named after its namespace.
func TestAppMirrorSameCluster(t *testing.T) {
	d := newDR(t, Options{Release: "23.07"})
	body := d.mirrorBody("1.1", "", map[string]any{"destinationClusterID": d.src,
		"namespaceMapping": []any{
			map[string]any{"clusterID": d.src, "namespaces": []any{"wp"}, "role": "source"},
			map[string]any{"clusterID": d.src, "namespaces": []any{"wp"}, "role": "destination"}},
		"storageClasses": []any{map[string]any{"clusterID": d.src, "storageClassName": "ontap-silver", "role": "destination"}}})
	d.post("/k8s/v1/appMirrors", body).problem(9)
	body["namespaceMapping"].([]any)[1].(map[string]any)["namespaces"] = []any{"wp-copy"}
	r := d.post("/k8s/v1/appMirrors", body).expect(201)
	if got := d.get("/k8s/v2/apps/" + r.str("destinationAppID")).str("name"); got != "wordpress-wp-copy" {
		t.Fatalf("same-cluster destination app: %s", got)
	}
	if !strings.Contains(string(r.raw), `"role":"destination"`) {
		t.Fatalf("1.1 answers the roles: %s", r.raw)
	}
}
