package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// sentBody captures the JSON body of the first request a call sends.
func sentBody(t *testing.T, version string, call func(context.Context, *Client) error) map[string]json.RawMessage {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		switch {
		case strings.Contains(r.URL.Path, "/credentials"):
			reply(w, 200, "application/json", credentialJSON)
		case strings.Contains(r.URL.Path, "/managedClusters"):
			reply(w, 200, "application/json", managedClusterJSON)
		case strings.Contains(r.URL.Path, "/clusters"):
			reply(w, 200, "application/json", fullClusterJSON)
		default:
			reply(w, 200, "application/json", cloudJSON)
		}
	})
	if err := call(context.Background(), f.client(t, func(c *Config) { c.ClusterVersion = version })); err != nil {
		t.Fatalf("call: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(f.requests()[0].Body, &m); err != nil {
		t.Fatalf("body %q: %v", f.requests()[0].Body, err)
	}
	return m
}

func TestUpdateSendsBackWhatItRead(t *testing.T) {
	var read Cluster
	withUnknown := strings.Replace(fullClusterJSON, `"location"`, `"connectorInstall":"installed","location"`, 1)
	if err := json.Unmarshal([]byte(withUnknown), &read); err != nil {
		t.Fatal(err)
	}
	read.Name = "renamed"
	body := sentBody(t, "1.7", func(ctx context.Context, c *Client) error {
		_, err := c.UpdateCluster(ctx, testCloud, &read)
		return err
	})
	var original map[string]json.RawMessage
	_ = json.Unmarshal([]byte(withUnknown), &original)
	for name, raw := range original {
		if string(raw) == "[]" { // empty lists are omitted, as every zero value is
			delete(original, name)
			continue
		}
		want := string(raw)
		if name == "name" {
			want = `"renamed"`
		}
		if got := string(body[name]); compact(got) != compact(want) {
			t.Errorf("member %s: sent %s, read %s", name, got, want)
		}
	}
	if len(body) != len(original) {
		t.Errorf("sent %d members, read %d", len(body), len(original))
	}

	// The same object PUT as version 1.5 leaves out what 1.5 does not define.
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.UpdateCluster(ctx, testCloud, &read)
		return err
	})
	if string(body["version"]) != `"1.5"` || body["acpVersion"] != nil || body["managedStateDetails"] != nil || body["connectorCapabilities"] == nil {
		t.Errorf("1.5 body: version %s acpVersion %s managedStateDetails %s connectorCapabilities %s",
			body["version"], body["acpVersion"], body["managedStateDetails"], body["connectorCapabilities"])
	}
	if string(body["connectorInstall"]) != `"installed"` {
		t.Error("unknown members travel back whatever the version")
	}
}

func compact(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestCreateBodiesFollowTheVersion(t *testing.T) {
	full := ClusterCreate{Name: "c", CredentialID: testCredential, PrivateRouteID: "r", ConnectorCapabilities: []string{"watcherV1"},
		AccHost: BoolPtr(true), ClusterType: "kubernetes", Labels: []Label{{"team", "storage"}}}
	body := sentBody(t, "1.7", func(ctx context.Context, c *Client) error {
		_, err := c.CreateCluster(ctx, testCloud, full)
		return err
	})
	want := `{"accHost":"true","clusterType":"kubernetes","connectorCapabilities":["watcherV1"],"credentialID":"` + testCredential +
		`","metadata":{"labels":[{"name":"team","value":"storage"}]},"name":"c","privateRouteID":"r","type":"application/astra-cluster","version":"1.7"}`
	if got, _ := json.Marshal(body); string(got) != want {
		t.Errorf("1.7 body:\n got %s\nwant %s", got, want)
	}
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.CreateCluster(ctx, testCloud, full)
		return err
	})
	if body["clusterType"] != nil || string(body["version"]) != `"1.5"` {
		t.Errorf("clusterType is only sent from 1.7: %v", body)
	}
	noHost := ClusterCreate{CredentialID: testCredential, AccHost: BoolPtr(false)}
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.CreateCluster(ctx, testCloud, noHost)
		return err
	})
	if body["accHost"] != nil || body["metadata"] != nil || body["name"] != nil {
		t.Errorf("accHost false, no labels and no name are left out: %v", body)
	}

	refusals := []struct {
		version string
		in      ClusterCreate
		want    string
	}{
		{"1.3", ClusterCreate{CredentialID: testCredential, PrivateRouteID: "r"}, "astra: cluster resource version 1.3 has no privateRouteID (added in 1.4)"},
		{"1.4", ClusterCreate{CredentialID: testCredential, ConnectorCapabilities: []string{"watcherV1"}}, "astra: cluster resource version 1.4 has no connectorCapabilities (added in 1.5)"},
		{"1.1", ClusterCreate{Name: "x"}, "astra: cluster resource version 1.1 requires a credential ID"},
	}
	for _, r := range refusals {
		f := newFake(t, router(nil))
		_, err := f.client(t, func(c *Config) { c.ClusterVersion = r.version }).CreateCluster(context.Background(), testCloud, r.in)
		if err == nil || !strings.HasPrefix(err.Error(), r.want) || f.count() != 0 {
			t.Errorf("%s: %v (requests %d)", r.version, err, f.count())
		}
	}
	f := newFake(t, router(nil))
	_, err := f.client(t).CreateManagedCluster(context.Background(), ManagedClusterCreate{ID: testCluster, DefaultBucketID: testBucket})
	if err == nil || err.Error() != "astra: managedCluster resource version 1.2 has no defaultBucketID (added in 1.7)" {
		t.Errorf("defaultBucketID at 1.2: %v", err)
	}
	if _, err := f.client(t).CreateCluster(context.Background(), "", full); err == nil || f.count() != 0 {
		t.Error("there is no cloud-less cluster POST")
	}
}

func TestCloudTypeIsSentLowercase(t *testing.T) {
	body := sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.CreateCloud(ctx, CloudCreate{Name: "g", CloudType: "GCP", CredentialID: testCredential})
		return err
	})
	if string(body["cloudType"]) != `"gcp"` || string(body["version"]) != `"1.1"` || string(body["type"]) != `"application/astra-cloud"` {
		t.Fatalf("%v", body)
	}
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.UpdateCloud(ctx, &Cloud{ID: testCloud, Name: "g", CloudType: "Azure"})
		return err
	})
	if string(body["cloudType"]) != `"azure"` {
		t.Fatalf("%v", body)
	}
}
