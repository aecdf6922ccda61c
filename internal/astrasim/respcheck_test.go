package astrasim

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// The response check must catch what it is there to catch.
func TestResponseCheckFindsViolations(t *testing.T) {
	sim, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := sim.st.Clusters[sim.Seeds().GCP.ClusterID]
	good := sim.renderCluster(c)
	if err := sim.checkResource(apispec.Cluster, "1.5", apispec.GetResponse, good); err != nil {
		t.Fatalf("a good cluster: %v", err)
	}
	bad := copyMap(good)
	delete(bad, "cloudID")
	bad["inUse"] = false
	err = sim.checkResource(apispec.Cluster, "1.5", apispec.GetResponse, bad)
	if err == nil || !strings.Contains(err.Error(), "cloudID") || !strings.Contains(err.Error(), "inUse") {
		t.Errorf("missing cloudID and a boolean inUse: %v", err)
	}
	if err := sim.checkResource(apispec.Cluster, "1.4", apispec.GetResponse, good); err == nil {
		t.Error("a body whose version differs from what it claims passed")
	}
	// cloudType GCP is the one accepted deviation; anything else outside the enum is not.
	cloud := sim.renderCloud(sim.st.Clouds[sim.Seeds().GCP.CloudID])
	if err := sim.checkResource(apispec.Cloud, "1.1", apispec.GetResponse, cloud); err != nil {
		t.Errorf("cloudType GCP: %v", err)
	}
	cloud["cloudType"] = "openstack"
	if err := sim.checkResource(apispec.Cloud, "1.1", apispec.GetResponse, cloud); err == nil {
		t.Error("cloudType openstack passed")
	}
	list := map[string]any{"items": []any{good, []any{"projected"}}, "metadata": map[string]any{"continue": "not base64!"}}
	if err := sim.checkList(apispec.Cluster, list); err == nil || !strings.Contains(err.Error(), "metadata") {
		t.Errorf("bad list metadata: %v", err)
	}
	// Problems: documented ones against the operation, others against the catalogue.
	route := "/topology/v1/clouds/{cloud_id}/clusters"
	p := map[string]any{"type": problemBase + "8", "title": "Invalid JSON resource", "detail": "something else", "status": "400"}
	if err := sim.checkProblem("POST", route, 400, p); err == nil {
		t.Error("problem 8 with another detail passed (the spec pins it)")
	}
	p = map[string]any{"type": problemBase + "45", "title": "Cluster exists", "detail": "x", "status": "409", "correlationID": "nope"}
	if err := sim.checkProblem("POST", route, 409, p); err == nil || !strings.Contains(err.Error(), "correlationID") {
		t.Errorf("a bad correlationID: %v", err)
	}
	p = map[string]any{"type": problemBase + "45", "title": "Cluster exists", "detail": "x", "status": "400"}
	if err := sim.checkProblem("POST", route, 400, p); err == nil {
		t.Error("problem 45 with status 400 passed")
	}
}

// TestCatalogueMatchesTheDocuments: every problem the published documents define has
// the documents' status, title and detail in the simulator's catalogue.
func TestCatalogueMatchesTheDocuments(t *testing.T) {
	checked := 0
	for _, release := range apispec.Releases {
		doc, _ := apispec.Load(release)
		for name, ref := range doc.Components.Schemas {
			n := problemNumber(problemBase + strings.TrimPrefix(name, "astra_problem_detail_"))
			if !strings.HasPrefix(name, "astra_problem_detail_") {
				continue
			}
			def, ok := catalogue[n]
			if !ok {
				t.Errorf("%s: problem %d is missing from the catalogue", release, n)
				continue
			}
			props := ref.Value.Properties
			if props["title"].Value.Enum[0] != def.title || props["detail"].Value.Enum[0] != def.detail || props["status"].Value.Enum[0] != itoa(def.status) {
				t.Errorf("%s: problem %d differs from the document", release, n)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Errorf("checked only %d problem definitions", checked)
	}
}

// The hook sees a violation end to end (a state the enum lacks, planted directly).
func TestOnResponseViolationFires(t *testing.T) {
	var got []string
	sim, err := New(Options{OnResponseViolation: func(method, route string, status int, err error) {
		got = append(got, method+" "+route+" "+itoa(status)+": "+err.Error())
	}})
	if err != nil {
		t.Fatal(err)
	}
	id := sim.Seeds().GCP.ClusterID
	sim.st.Clusters[id].State = "exploded"
	srv := httptest.NewServer(sim)
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/accounts/"+sim.AccountID()+"/topology/v1/clusters/"+id, nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(got) != 1 || !strings.Contains(got[0], "GET /topology/v1/clusters/{cluster_id} 200") || !strings.Contains(got[0], "/state") {
		t.Errorf("violations reported: %q", got)
	}
}
