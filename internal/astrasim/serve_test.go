package astrasim

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"io"
	"net/http"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func getClouds(t *testing.T, client *http.Client, url, account string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/accounts/"+account+"/topology/v1/clouds", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestServe(t *testing.T) {
	sim, url, stop, err := Serve(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url %q", url)
	}
	if got := getClouds(t, http.DefaultClient, url, sim.AccountID()); got != 200 {
		t.Errorf("status %d", got)
	}
	stop()
	if _, err := http.Get(url); err == nil {
		t.Error("the server still answers after stop")
	}
	if _, _, _, err := Serve(Options{Release: "99.99"}); err == nil {
		t.Error("Serve accepted an unknown release")
	}
}

func TestServeTLS(t *testing.T) {
	sim, url, caPEM, stop, err := ServeTLS(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("caPEM is not a PEM certificate")
	}
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	if got := getClouds(t, trusting, url, sim.AccountID()); got != 200 {
		t.Errorf("status %d", got)
	}
	// Without the CA the certificate is refused, as a self-signed ACC's would be.
	if _, err := http.Get(url); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("an untrusting client: %v", err)
	}
	// The reset fault works over TLS too.
	sim.AddFault(Fault{Kind: FaultReset, Times: 1})
	req, _ := http.NewRequest(http.MethodGet, url+"/accounts/"+sim.AccountID()+"/topology/v1/clouds", nil)
	if _, err := trusting.Do(req); err == nil {
		t.Error("a reset TLS connection answered")
	}
}

func TestTestKubeconfig(t *testing.T) {
	kc := TestKubeconfig(`we"ird: name`, "https://10.0.0.1:6443")
	js, err := yaml.YAMLToJSON(kc)
	if err != nil {
		t.Fatalf("not YAML: %v\n%s", err, kc)
	}
	info, err := parseKubeconfig(base64.StdEncoding.EncodeToString(js), false)
	if err != nil {
		t.Fatalf("the test kubeconfig is not valid: %v", err)
	}
	if info.ClusterName != `we"ird: name` || info.Server != "https://10.0.0.1:6443" {
		t.Errorf("parsed %+v", info)
	}
	if (&kubeInfo{Server: "https://x.example.invalid:6443"}).unreachable() != true || info.unreachable() {
		t.Error("unreachable() must hold exactly for .invalid hosts")
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	bad := []Options{
		{Release: "21.01"},
		{AccountID: "not-a-uuid"},
		{Tokens: map[string]Role{}},
		{Tokens: map[string]Role{"t": "root"}},
		{Tokens: map[string]Role{"has space": RoleOwner}},
	}
	for _, o := range bad {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) succeeded", o)
		}
	}
	s, err := New(Options{})
	if err != nil || s.AccountID() != DefaultAccountID || s.Release() != "23.07" {
		t.Errorf("defaults: %v %s %s", err, s.AccountID(), s.Release())
	}
	if r, err := ParseRole(" Admin "); err != nil || r != RoleAdmin {
		t.Errorf("ParseRole: %v %v", r, err)
	}
}

// TestInvalidIDsNamedInPathOrder: a URI with two IDs that are not identifiers names the
// first in the path, every time (they were checked in a map's order, so two identical
// requests could name different ones).
func TestInvalidIDsNamedInPathOrder(t *testing.T) {
	sim, url, stop, err := Serve(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for range 50 {
		req, _ := http.NewRequest(http.MethodGet, url+"/accounts/"+sim.AccountID()+"/k8s/v1/apps/not-an-app/appSnaps/not-a-snapshot", nil)
		req.Header.Set("Authorization", "Bearer "+DefaultToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "The app_id in the request URI isn't a valid identifier.") {
			t.Fatalf("status %d, %s: want 400 naming app_id, the first bad ID in the path", resp.StatusCode, body)
		}
	}
}
