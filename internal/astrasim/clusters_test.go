package astrasim

import (
	"crypto/md5"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
)

func TestAddPrivateClusterWithKubeconfig(t *testing.T) {
	e := newEnv(t, Options{})
	private := e.sim.Seeds().PrivateCloudID
	cred := e.post("/core/v1/credentials", kubeconfigBody("api-ocp-example-com:6443", "https://api.ocp.example.com:6443")).expect(201)
	r := e.post("/topology/v1/clouds/"+private+"/clusters", clusterBody("1.5", map[string]any{"credentialID": cred.str("id")})).expect(201)
	id := r.str("id")
	checks := map[string]string{
		"name": "api-ocp-example-com:6443", "state": "running", "managedState": "unmanaged", "inUse": "false",
		"clusterType": "kubernetes", "cloudID": private, "credentialID": cred.str("id"), "version": "1.5",
		"apiServiceID": uuid5("https://api.ocp.example.com:6443"), "tridentVersion": "23.07.0",
	}
	for k, want := range checks {
		if got := r.str(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if loc := r.header.Get("Location"); loc != e.url("/topology/v1/clouds/"+private+"/clusters/"+id) {
		t.Errorf("Location = %q", loc)
	}
	if r.str("managedTimestamp") != "" {
		t.Error("managedTimestamp is only returned while managed")
	}
	// The default storage class is known at once (NAS feeds it straight into manage).
	scs := e.get("/topology/v1/clouds/" + private + "/clusters/" + id + "/storageClasses").expect(200)
	defaults := 0
	for i, item := range scs.items() {
		if item.(map[string]any)["isDefault"] == "true" {
			defaults++
			if itemField(scs.items(), i, "id") != r.str("defaultStorageClass") {
				t.Error("defaultStorageClass is not the storage class marked isDefault")
			}
		}
	}
	if defaults != 1 || len(scs.items()) != 3 {
		t.Errorf("want 3 storage classes, exactly one default: %s", scs.raw)
	}
	// The service labels the credential with the cluster it serves.
	labels := e.get("/core/v1/credentials/" + cred.str("id")).expect(200).body["metadata"].(map[string]any)["labels"].([]any)
	found := map[string]string{}
	for _, l := range labels {
		m := l.(map[string]any)
		found[m["name"].(string)] = m["value"].(string)
	}
	if found[labelClusterID] != id || found[labelClusterName] != "api-ocp-example-com:6443" || found[labelCredType] != "kubeconfig" {
		t.Errorf("credential labels: %v", found)
	}
	// The same cluster under the cloud-less alias, and not under another cloud.
	if e.get("/topology/v1/clusters/"+id).expect(200).str("id") != id {
		t.Error("alias GET")
	}
	e.get("/topology/v1/clouds/" + e.sim.Seeds().GCP.CloudID + "/clusters/" + id).problem(2)
	e.post("/topology/v1/clouds/3f2a1b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c/clusters", clusterBody("1.5", map[string]any{"credentialID": cred.str("id")})).problem(2)
}

func TestDuplicateCluster(t *testing.T) {
	e := newEnv(t, Options{})
	clusters := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	// Two credentials for one cluster, made before the cluster is added.
	first := e.post("/core/v1/credentials", kubeconfigBody("dup", "https://dup.example.com")).expect(201).str("id")
	second := e.post("/core/v1/credentials", kubeconfigBody("dup-again", "https://dup.example.com/")).expect(201).str("id")
	e.post(clusters, clusterBody("1.5", map[string]any{"credentialID": first})).expect(201)
	e.post(clusters, clusterBody("1.5", map[string]any{"credentialID": second, "name": "other-name"})).problem(45)
	// Another cluster with a name already used in the cloud.
	third := e.post("/core/v1/credentials", kubeconfigBody("third", "https://third.example.com")).expect(201).str("id")
	e.post(clusters, clusterBody("1.5", map[string]any{"credentialID": third, "name": "dup"})).problem(45)
	// Now the cluster has a credential: a new kubeconfig credential for it is refused.
	e.post("/core/v1/credentials", kubeconfigBody("dup-3", "https://dup.example.com")).problem(44)
	if n := e.sim.Count(http.MethodPost, "/topology/v1/clouds/{cloud_id}/clusters"); n != 3 {
		t.Errorf("counted %d cluster POSTs, want 3", n)
	}
}

func TestUnreachableKubeconfig(t *testing.T) {
	e := newEnv(t, Options{})
	clusters := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	cred := e.post("/core/v1/credentials", kubeconfigBody("gone", "https://gone.example.invalid")).expect(201).str("id")
	e.post(clusters, clusterBody("1.5", map[string]any{"credentialID": cred})).problem(63)
	generic := e.sim.Seeds().GCP.CredentialID
	r := e.post(clusters, clusterBody("1.5", map[string]any{"credentialID": generic})).problem(9)
	if !strings.Contains(r.field("invalidFields", "credentialID"), "kubeconfig") {
		t.Errorf("reason: %s", r.raw)
	}
}

func TestPublicCloudClusterRules(t *testing.T) {
	e := newEnv(t, Options{})
	gcp := e.sim.Seeds().GCP
	cred := e.post("/core/v1/credentials", kubeconfigBody("p", "https://p.example.com")).expect(201).str("id")
	e.post("/topology/v1/clouds/"+gcp.CloudID+"/clusters", clusterBody("1.5", map[string]any{"credentialID": cred})).problem(93)
	e.del("/topology/v1/clouds/" + gcp.CloudID + "/clusters/" + gcp.ClusterID).problem(92)
	e.del("/topology/v1/clusters/" + gcp.ClusterID).problem(92)
	e.put("/topology/v1/clusters/"+gcp.ClusterID, clusterBody("1.5", map[string]any{"name": "renamed"})).problem(67)
	if e.get("/topology/v1/clusters/"+gcp.ClusterID).str("name") != "gke-prod" {
		t.Error("a refused PUT changed the cluster")
	}
}

func TestDeleteCluster(t *testing.T) {
	e := newEnv(t, Options{})
	cred, id := e.addPrivateCluster("gone-soon")
	e.manage(id).expect(201)
	r := e.del("/topology/v1/clusters/" + id).problem(10)
	if !strings.Contains(r.field("invalidFields", "managedState"), "unmanage it first") {
		t.Errorf("deleting a managed cluster must say to unmanage first: %s", r.raw)
	}
	e.del("/topology/v1/managedClusters/" + id).expect(204)
	e.del("/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters/" + id).expect(204)
	e.get("/topology/v1/clusters/" + id).problem(2)
	e.del("/topology/v1/clusters/" + id).problem(1)
	e.put("/topology/v1/clusters/"+id, clusterBody("1.5", nil)).problem(1)
	e.get("/topology/v1/clusters/" + id + "/storageClasses").problem(2)
	if n := len(e.sim.st.storageClassesOf(id)); n != 0 {
		t.Errorf("%d storage classes outlived their cluster", n)
	}
	// Removing the cluster takes its labels off the credential.
	for _, l := range e.get("/core/v1/credentials/" + cred).body["metadata"].(map[string]any)["labels"].([]any) {
		if name := l.(map[string]any)["name"]; name == labelClusterID || name == labelClusterName {
			t.Errorf("label %s outlived the cluster", name)
		}
	}
}

func TestPutCluster(t *testing.T) {
	for _, returnsBody := range []bool{false, true} {
		e := newEnv(t, Options{PutReturnsBody: returnsBody})
		_, id := e.addPrivateCluster("to-rename")
		path := "/topology/v1/clusters/" + id
		body := clusterBody("1.5", map[string]any{
			"name": "renamed", "state": "failed", "cloudID": e.sim.Seeds().GCP.CloudID, // read-only: ignored
			"metadata": map[string]any{"labels": []any{
				map[string]any{"name": "team", "value": "blue"},
				map[string]any{"name": labelCloudName, "value": "tampered"},
			}},
		})
		r := e.put(path, body)
		if returnsBody {
			r.expect(200)
			if r.str("name") != "renamed" || r.header.Get("ETag") == "" {
				t.Errorf("200 PUT must answer the resource with its ETag: %s", r.raw)
			}
		} else if r.expect(204); len(r.raw) != 0 {
			t.Errorf("204 with a body: %s", r.raw)
		}
		got := e.get(path).expect(200)
		if got.str("name") != "renamed" || got.str("state") != "running" || got.str("cloudID") != e.sim.Seeds().PrivateCloudID {
			t.Errorf("after PUT: name %q state %q cloud %q", got.str("name"), got.str("state"), got.str("cloudID"))
		}
		labels := map[string]string{}
		for _, l := range got.body["metadata"].(map[string]any)["labels"].([]any) {
			m := l.(map[string]any)
			labels[m["name"].(string)] = m["value"].(string)
		}
		if labels["team"] != "blue" || labels[labelCloudName] != "private" {
			t.Errorf("labels after PUT: %v (read-only labels keep the service's values)", labels)
		}
		if got.str("metadata.modifiedBy") == "" {
			t.Error("modifiedBy not set by PUT")
		}
		// Omitted fields keep their values.
		e.put(path, clusterBody("1.5", nil))
		if e.get(path).str("name") != "renamed" {
			t.Error("a PUT without name cleared it")
		}
		e.put(path, clusterBody("1.5", map[string]any{"id": e.sim.Seeds().GCP.ClusterID})).problem(10)
	}
}

func TestETagAndIfMatch(t *testing.T) {
	e := newEnv(t, Options{})
	_, id := e.addPrivateCluster("etag")
	path := "/topology/v1/clusters/" + id
	r := e.get(path).expect(200)
	sum := md5.Sum(r.raw)
	if want := `"` + hex.EncodeToString(sum[:]) + `"`; r.header.Get("ETag") != want {
		t.Fatalf("ETag %q, want the MD5 of the body %q", r.header.Get("ETag"), want)
	}
	stale := http.Header{"If-Match": {`"0123456789abcdef0123456789abcdef"`}}
	e.doURL(http.MethodPut, e.url(path), mustJSON(clusterBody("1.5", map[string]any{"name": "x"})), stale).problem(38)
	e.doURL(http.MethodDelete, e.url(path), nil, stale).problem(38)
	fresh := http.Header{"If-Match": {r.header.Get("ETag")}}
	e.doURL(http.MethodPut, e.url(path), mustJSON(clusterBody("1.5", map[string]any{"name": "y"})), fresh).expect(204)
	// The old ETag no longer matches after the change.
	e.doURL(http.MethodPut, e.url(path), mustJSON(clusterBody("1.5", map[string]any{"name": "z"})), fresh).problem(38)
	e.doURL(http.MethodPut, e.url(path), mustJSON(clusterBody("1.5", map[string]any{"name": "z"})), http.Header{"If-Match": {"*"}}).expect(204)
	cred := e.sim.Seeds().GCP.CredentialID
	e.doURL(http.MethodPut, e.url("/core/v1/credentials/"+cred), mustJSON(map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "n", "keyStore": map[string]any{"k": "SGkh"}}), stale).problem(38)
}

func TestConnectorCluster(t *testing.T) {
	e := newEnv(t, Options{})
	clusters := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	r := e.post(clusters, clusterBody("1.5", map[string]any{
		"name": "edge-1", "privateRouteID": "5f77326f-c482-42ef-8376-ecb9ec17f1ae", "connectorCapabilities": []any{"relayV1", "watcherV1", "neptuneV1"},
	})).expect(201)
	if r.str("state") != "pending" || r.str("managedState") != "pending" || r.body["credentialID"] != nil {
		t.Fatalf("a connector cluster waits for its connector: %s", r.raw)
	}
	id := r.str("id")
	m := e.manage(id).expect(201)
	if m.str("managedState") != "managed" || m.str("state") != "running" {
		t.Errorf("after the connector manages it: %s/%s", m.str("managedState"), m.str("state"))
	}
	caps := e.get("/topology/v1/clusters/" + id).body["connectorCapabilities"].([]any)
	if len(caps) != 3 || caps[0] != "relayV1" {
		t.Errorf("capabilities: %v", caps)
	}
	// Adding a credential to a relay cluster breaks the rule.
	cred := e.post("/core/v1/credentials", kubeconfigBody("edge", "https://edge.example.com")).expect(201).str("id")
	e.put("/topology/v1/clusters/"+id, clusterBody("1.5", map[string]any{"credentialID": cred})).problem(165)
}

func TestSetPutReturnsBody(t *testing.T) {
	e := newEnv(t, Options{})
	path := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID
	body := map[string]any{"type": "application/astra-cloud", "version": "1.1"}
	e.put(path, body).expect(204)
	e.sim.SetPutReturnsBody(true)
	if r := e.put(path, body).expect(200); r.str("id") != e.sim.Seeds().PrivateCloudID {
		t.Errorf("200 PUT body: %s", r.raw)
	}
	e.sim.SetPutReturnsBody(false)
	e.put(path, body).expect(204)
}
