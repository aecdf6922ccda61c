package astrasim

import (
	"net/http"
	"strings"
	"testing"
)

func TestAuthentication(t *testing.T) {
	e := newEnv(t, Options{})
	cases := []struct {
		name   string
		header string
		want   int
	}{
		{"no header", "", 3},
		{"not bearer", "Basic dXNlcjpwYXNz", 3},
		{"empty bearer", "Bearer ", 3},
		{"unknown token", "Bearer nope", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			if c.header != "" {
				h.Set("Authorization", c.header)
			}
			r := e.as("").doURL(http.MethodGet, e.url("/topology/v1/clouds"), nil, h).problem(c.want)
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("401 without a Bearer challenge: %q", r.header.Get("WWW-Authenticate"))
			}
		})
	}
	// Authentication comes before everything else, even an unknown path.
	e.as("nope").get("/no/such/path").problem(4)
	e.get("/no/such/path").problem(2)
}

func TestAccountInPath(t *testing.T) {
	e := newEnv(t, Options{})
	other := e.srv.URL + "/accounts/" + "3f2a1b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c" + "/topology/v1/clouds"
	r := e.doURL(http.MethodGet, other, nil, nil).problem(14)
	if !strings.Contains(r.str("detail"), "x-pcloud-accountid") {
		t.Errorf("a wrong account's problem must name x-pcloud-accountid (actoolkit keys on it): %s", r.raw)
	}
	e.doURL(http.MethodGet, e.srv.URL+"/accounts/not-a-uuid/topology/v1/clouds", nil, nil).problem(33)
	e.get("/").expect(200)
}

func TestRoles(t *testing.T) {
	e := newEnv(t, Options{Tokens: map[string]Role{"v": RoleViewer, "m": RoleMember, "a": RoleAdmin, "o": RoleOwner}})
	seeds := e.sim.Seeds()
	credBody := kubeconfigBody("roles", "https://roles.example.com")
	cloudBody := map[string]any{"type": "application/astra-cloud", "version": "1.1", "name": "p2", "cloudType": "private"}
	viewer, member, admin := e.as("v"), e.as("m"), e.as("a")

	// A viewer reads everything and writes nothing.
	viewer.get("/topology/v1/clouds").expect(200)
	viewer.get("/core/v1/credentials").expect(200)
	writes := []struct {
		method, path string
		body         any
	}{
		{http.MethodPost, "/core/v1/credentials", credBody},
		{http.MethodPost, "/topology/v1/clouds", cloudBody},
		{http.MethodPut, "/topology/v1/clouds/" + seeds.PrivateCloudID, map[string]any{"type": "application/astra-cloud", "version": "1.1"}},
		{http.MethodDelete, "/topology/v1/clouds/" + seeds.PrivateCloudID, nil},
		{http.MethodPost, "/topology/v1/managedClusters", map[string]any{"type": "application/astra-managedCluster", "version": "1.2", "id": seeds.GCP.ClusterID}},
		{http.MethodDelete, "/core/v1/credentials/" + seeds.GCP.CredentialID, nil},
	}
	for _, w := range writes {
		viewer.do(w.method, w.path, w.body).problem(11)
	}
	// A member manages clusters and credentials but not clouds.
	member.post("/topology/v1/clouds", cloudBody).problem(11)
	member.post("/core/v1/credentials", credBody).expect(201)
	member.manage(seeds.GCP.ClusterID).expect(201)
	// Admins (and owners) manage clouds.
	admin.post("/topology/v1/clouds", cloudBody).expect(201)
	if n := e.sim.Count(http.MethodPost, "/topology/v1/clouds"); n != 3 {
		t.Errorf("POST clouds counted %d times, want 3 (refused requests count too)", n)
	}
}

func TestPathAndMethodChecks(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.del("/topology/v1/clusters").problem(69)
	if r.header.Get("Allow") != "GET" {
		t.Errorf("Allow = %q, want GET", r.header.Get("Allow"))
	}
	if r := e.put("/topology/v1/managedClusters", nil).problem(69); r.header.Get("Allow") != "GET, POST" {
		t.Errorf("Allow = %q", r.header.Get("Allow"))
	}
	r = e.get("/topology/v1/clouds/not-an-id").problem(35)
	if !strings.Contains(r.str("detail"), "cloud_id") {
		t.Errorf("problem 35 should name the parameter: %s", r.raw)
	}
	e.get("/topology/v1/nothing").problem(2)
	e.doURL(http.MethodGet, e.url("/topology/v1/clouds"), nil, http.Header{"Accept": {"text/html"}}).problem(32)
	for _, accept := range []string{"*/*", "application/json", "application/astra-cloud+json", "application/managedCluster+json"} {
		e.doURL(http.MethodGet, e.url("/topology/v1/clouds"), nil, http.Header{"Accept": {accept}}).expect(200)
	}
}

func TestContentNegotiation(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sim.Seeds().PrivateCloudID
	r := e.doURL(http.MethodGet, e.url("/topology/v1/clouds/"+id), nil, http.Header{"Accept": {"application/astra-cloud+json"}}).expect(200)
	if ct := r.header.Get("Content-Type"); ct != "application/astra-cloud+json" {
		t.Errorf("Content-Type = %q, want the media type the client asked for", ct)
	}
	if ct := e.get("/topology/v1/clouds/" + id).header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type without Accept = %q, want application/json", ct)
	}
	// Request media types real clients send, the malformed one included.
	for _, ct := range []string{"application/json", "application/astra-credential+json", "application/managedCluster+json"} {
		e.doURL(http.MethodPost, e.url("/core/v1/credentials"), mustJSON(kubeconfigBody("ct", "https://ct-"+strings.ReplaceAll(ct, "/", "-")+".example.com")), http.Header{"Content-Type": {ct}}).expect(201)
	}
	r = e.doURL(http.MethodPost, e.url("/core/v1/credentials"), mustJSON(kubeconfigBody("x", "https://x.example.com")), http.Header{"Content-Type": {"text/plain"}}).problem(12)
	if r.field("invalidParams", "Content-Type") == "" {
		t.Error("problem 12 without a reason")
	}
}

func TestWrongAccountBeforeUnknownPath(t *testing.T) {
	e := newEnv(t, Options{})
	e.doURL(http.MethodGet, e.srv.URL+"/accounts/3f2a1b0c-1d2e-4f3a-8b4c-5d6e7f8a9b0c/no/such", nil, nil).problem(14)
	e.doURL(http.MethodGet, e.srv.URL+"/elsewhere", nil, nil).problem(2)
}
