package astrasim

import (
	"net/url"
	"strings"
	"testing"
)

func q(path string, params ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(params); i += 2 {
		v.Add(params[i], params[i+1])
	}
	return path + "?" + v.Encode()
}

func TestListEnvelopeAndInclude(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.get("/topology/v1/clusters").expect(200)
	if len(r.items()) != 6 || r.body["metadata"] == nil || len(r.body) != 4 {
		t.Fatalf("want {type, version, items (6 seeded clusters), metadata}: %s", r.raw)
	}
	// The collection names the release's newest version, as the published examples do:
	// clients learn from it what the service speaks.
	for path, want := range map[string][2]string{
		"/topology/v1/clusters":        {"application/astra-clusters", "1.5"},
		"/topology/v1/managedClusters": {"application/astra-managedClusters", "1.2"},
		"/topology/v1/clouds":          {"application/astra-clouds", "1.1"},
		"/core/v1/credentials":         {"application/astra-credentials", "1.1"},
	} {
		if r := e.get(path).expect(200); r.body["type"] != want[0] || r.body["version"] != want[1] {
			t.Errorf("GET %s: type %v, version %v; want %s %s", path, r.body["type"], r.body["version"], want[0], want[1])
		}
	}
	if r := newEnv(t, Options{Release: "24.02"}).get("/topology/v1/clusters").expect(200); r.body["version"] != "1.7" {
		t.Errorf("24.02 clusters collection: version %v, want 1.7", r.body["version"])
	}
	r = e.get(q("/topology/v1/clusters", "include", "id,name,managedState")).expect(200)
	row, ok := r.items()[0].([]any)
	if !ok || len(row) != 3 || row[1] != "gke-prod" || row[2] != "unmanaged" {
		t.Errorf("include must answer [id, name, managedState] arrays in order: %s", r.raw)
	}
	// A field a private cluster lacks answers null in its slot.
	r = e.get(q("/topology/v1/clusters", "include", "name,location", "filter", "name eq 'aks-prod'")).expect(200)
	if row := r.items()[0].([]any); row[1] != "eastus" {
		t.Errorf("include location: %s", r.raw)
	}
}

func TestListLimitFilterAndOrder(t *testing.T) {
	e := newEnv(t, Options{})
	names := func(r *result) string {
		var out []string
		for i := range r.items() {
			out = append(out, itemField(r.items(), i, "name"))
		}
		return strings.Join(out, ",")
	}
	cases := []struct {
		params []string
		want   string
	}{
		{[]string{"limit", "2"}, "gke-prod,gke-legacy"},
		{[]string{"filter", "managedState eq 'ineligible'"}, "gke-legacy,aks-legacy,eks-legacy"},
		{[]string{"filter", "clusterType in 'aks,eks'", "filter", "managedState eq 'unmanaged'"}, "aks-prod,eks-prod"},
		{[]string{"filter", "clusterVersion lt '1.24'"}, "gke-legacy,aks-legacy,eks-legacy"},
		{[]string{"filter", "clusterVersion gte '1.24'", "limit", "1"}, "gke-prod"},
		{[]string{"filter", "metadata.labels[*].value eq 'Azure'"}, "aks-prod,aks-legacy"},
		{[]string{"filter", "name gt 'eks-prod'"}, "gke-prod,gke-legacy"},
		{[]string{"filter", "name lte 'aks-prod'"}, "aks-prod,aks-legacy"},
	}
	for _, c := range cases {
		if got := names(e.get(q("/topology/v1/clusters", c.params...)).expect(200)); got != c.want {
			t.Errorf("%v: got %s, want %s", c.params, got, c.want)
		}
	}
	clouds := e.get(q("/topology/v1/clouds", "filter", "cloudType eq 'private'")).expect(200)
	if names(clouds) != "private" {
		t.Errorf("clouds filter: %s", clouds.raw)
	}
}

func TestListParameterErrors(t *testing.T) {
	e := newEnv(t, Options{})
	cluster := e.sim.Seeds().GCP.ClusterID
	unsupported := []struct{ path, param string }{
		{q("/topology/v1/clusters", "orderBy", "name"), "orderBy"},
		{q("/topology/v1/clusters", "continue", "b2Zmc2V0OjI="), "continue"},
		{q("/topology/v1/clusters", "count", "true"), "count"},
		{q("/topology/v1/clusters", "skip", "1"), "skip"},
		{q("/topology/v1/clusters/"+cluster+"/storageClasses", "filter", "name eq 'x'"), "filter"},
		{q("/topology/v1/clusters/"+cluster, "include", "name"), "include"},
		{q("/topology/v1/clouds", "bogus", "1"), "bogus"},
	}
	for _, u := range unsupported {
		r := e.get(u.path).problem(6)
		if r.field("invalidParams", u.param) == "" {
			t.Errorf("%s: no reason", u.path)
		}
	}
	invalid := []struct{ path, param string }{
		{q("/topology/v1/clusters", "limit", "0"), "limit"},
		{q("/topology/v1/clusters", "limit", "ten"), "limit"},
		{q("/topology/v1/clusters", "include", "id;name"), "include"},
		{q("/topology/v1/clusters", "include", "id,nosuchfield"), "include"},
		{q("/topology/v1/clusters", "filter", "name eq gke"), "filter"},
		{q("/topology/v1/clusters", "filter", "nosuch eq 'x'"), "filter"},
		{q("/core/v1/credentials", "orderBy", "name sideways"), "orderBy"},
		{q("/core/v1/credentials", "continue", "!!"), "continue"},
	}
	for _, u := range invalid {
		r := e.get(u.path).problem(5)
		if r.field("invalidParams", u.param) == "" {
			t.Errorf("%s: no reason", u.path)
		}
	}
}

// Credentials are the one collection here that supports orderBy and continue.
func TestCredentialPaging(t *testing.T) {
	e := newEnv(t, Options{})
	for _, n := range []string{"c-3", "c-1", "c-2"} {
		e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": n, "keyStore": map[string]any{"k": "SGkh"}}).expect(201)
	}
	var seen []string
	token := ""
	for page := 0; page < 10; page++ {
		params := []string{"orderBy", "name desc", "limit", "2", "filter", "name in 'c-1,c-2,c-3'"}
		if token != "" {
			params = append(params, "continue", token)
		}
		r := e.get(q("/core/v1/credentials", params...)).expect(200)
		for i := range r.items() {
			seen = append(seen, itemField(r.items(), i, "name"))
		}
		token = r.str("metadata.continue")
		if token == "" {
			break
		}
	}
	if strings.Join(seen, ",") != "c-3,c-2,c-1" {
		t.Errorf("paged orderBy name desc: %v", seen)
	}
}
