package astrasim

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

// call serves one request in-process (no network), as a benchmark wants.
func call(b *testing.B, sim *Sim, method, path string, body []byte, want int) []byte {
	req := httptest.NewRequest(method, "/accounts/"+sim.AccountID()+path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	sim.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes()
}

func BenchmarkGetCluster(b *testing.B) {
	sim, _ := New(Options{})
	path := "/topology/v1/clusters/" + sim.Seeds().GCP.ClusterID
	b.ReportAllocs()
	for b.Loop() {
		call(b, sim, http.MethodGet, path, nil, 200)
	}
}

func BenchmarkListClustersFiltered(b *testing.B) {
	sim, _ := New(Options{})
	b.ReportAllocs()
	for b.Loop() {
		call(b, sim, http.MethodGet, "/topology/v1/clusters?filter=managedState%20eq%20'unmanaged'&include=id,name", nil, 200)
	}
}

// BenchmarkClusterLifecycle is one provider create+destroy: credential, cluster, manage,
// unmanage, delete cluster, delete credential (six validated writes).
func BenchmarkClusterLifecycle(b *testing.B) {
	sim, _ := New(Options{})
	cloud := "/topology/v1/clouds/" + sim.Seeds().PrivateCloudID + "/clusters"
	cred := mustJSON(kubeconfigBody("bench", "https://bench.example.com"))
	b.ReportAllocs()
	for b.Loop() {
		credID := decodeID(b, call(b, sim, http.MethodPost, "/core/v1/credentials", cred, 201))
		id := decodeID(b, call(b, sim, http.MethodPost, cloud, mustJSON(clusterBody("1.5", map[string]any{"credentialID": credID})), 201))
		call(b, sim, http.MethodPost, "/topology/v1/managedClusters", mustJSON(map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "id": id}), 201)
		call(b, sim, http.MethodDelete, "/topology/v1/managedClusters/"+id, nil, 204)
		call(b, sim, http.MethodDelete, "/topology/v1/clusters/"+id, nil, 204)
		call(b, sim, http.MethodDelete, "/core/v1/credentials/"+credID, nil, 204)
	}
	if n := sim.Count(http.MethodPost, "/topology/v1/managedClusters"); n != b.N {
		b.Errorf("counted %d manages for %d iterations", n, b.N)
	}
}

func decodeID(b *testing.B, body []byte) string {
	var m map[string]any
	if err := jsonUnmarshal(body, &m); err != nil {
		b.Fatal(err)
	}
	id, ok := m["id"].(string)
	if !ok {
		b.Fatalf("no id in %s", body)
	}
	return id
}
