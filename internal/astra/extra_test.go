package astra

import (
	"encoding/json"
	"testing"
)

func TestUnknownMembersSurviveARoundTrip(t *testing.T) {
	in := `{"type":"application/astra-cluster","version":"1.5","id":"x","name":"a",
		"connectorInstall":"pending","defaultBucketID":"","lastHeartbeat":{"at":"2024-01-01T00:00:00Z"}}`
	var c Cluster
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if c.Name != "a" || len(c.Extra) != 3 {
		t.Fatalf("name %q, extra %v", c.Name, c.Extra)
	}
	if string(c.Extra["connectorInstall"]) != `"pending"` {
		t.Errorf("connectorInstall kept as %s", c.Extra["connectorInstall"])
	}
	out, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"connectorInstall":"pending","defaultBucketID":"","id":"x","lastHeartbeat":{"at":"2024-01-01T00:00:00Z"},"name":"a","type":"application/astra-cluster","version":"1.5"}`
	if string(out) != want {
		t.Fatalf("round trip:\n got %s\nwant %s", out, want)
	}
}

func TestIllTypedMemberIsKeptRawAndTheRestDecodes(t *testing.T) {
	in := `{"id":"x","name":"a","clusterVersion":1.27,"namespaces":"default","state":"running"}`
	var c Cluster
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatalf("one odd member must not fail the object: %v", err)
	}
	if c.State != "running" || c.ClusterVersion != "" || c.Namespaces != nil {
		t.Fatalf("state %q clusterVersion %q namespaces %v", c.State, c.ClusterVersion, c.Namespaces)
	}
	if string(c.Extra["clusterVersion"]) != `1.27` || string(c.Extra["namespaces"]) != `"default"` {
		t.Fatalf("ill-typed members should be kept raw, extra = %v", c.Extra)
	}
	out, _ := json.Marshal(c)
	var back map[string]json.RawMessage
	_ = json.Unmarshal(out, &back)
	if string(back["clusterVersion"]) != `1.27` {
		t.Fatalf("the raw member should travel back unchanged: %s", out)
	}
}

func TestKnownFieldsWinOverExtraAndCaseFolds(t *testing.T) {
	var c Cloud
	if err := json.Unmarshal([]byte(`{"Name":"folded","cloudtype":"GCP"}`), &c); err != nil {
		t.Fatal(err)
	}
	if c.Name != "folded" || c.CloudType != "GCP" || c.Extra != nil {
		t.Fatalf("case-insensitive match failed: %+v", c)
	}
	c.Extra = map[string]json.RawMessage{"name": json.RawMessage(`"from-extra"`), "other": json.RawMessage(`1`)}
	out, _ := json.Marshal(c)
	if got, want := string(out), `{"cloudType":"GCP","name":"folded","other":1,"type":"","version":""}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	c.Extra = map[string]json.RawMessage{"bad": json.RawMessage(`{`)}
	if _, err := json.Marshal(c); err == nil {
		t.Fatal("an invalid kept member must fail encoding, not corrupt the body")
	}
}

func TestStateDetailKeepsAdditionalDetails(t *testing.T) {
	in := `{"type":"t","title":"T","detail":"D","additionalDetails":{"k":"v"}}`
	var d StateDetail
	if err := json.Unmarshal([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(d)
	if got, want := string(out), `{"additionalDetails":{"k":"v"},"detail":"D","title":"T","type":"t"}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestNoExtraMeansNilAndNotAnObjectFails(t *testing.T) {
	var cr Credential
	if err := json.Unmarshal([]byte(`{"id":"1","name":"n","valid":"true","metadata":{"labels":null}}`), &cr); err != nil {
		t.Fatal(err)
	}
	if cr.Extra != nil || cr.Metadata.Labels != nil || !cr.Valid.Value() {
		t.Fatalf("got %+v", cr)
	}
	if err := json.Unmarshal([]byte(`[1,2]`), &cr); err == nil {
		t.Fatal("an array is not a credential")
	}
	if out, _ := json.Marshal(Credential{}); string(out) != `{"type":"","version":""}` {
		t.Fatalf("zero metadata must be omitted: %s", out)
	}
}

// Both facets embed ClusterStatus: its members must decode into the embedded fields, not
// land in Extra, and travel back on encode beside the kept unknown members.
func TestEmbeddedClusterStatusIsKnown(t *testing.T) {
	in := `{"type":"application/astra-managedCluster","version":"1.2","id":"c1","state":"running",` +
		`"managedState":"managed","namespaces":["default"],"defaultBucketID":"b1","connectorInstall":"installed"}`
	var m ManagedCluster
	if err := json.Unmarshal([]byte(in), &m); err != nil {
		t.Fatal(err)
	}
	if m.State != "running" || m.ManagedState != "managed" || len(m.Namespaces) != 1 || m.DefaultBucketID != "b1" {
		t.Fatalf("embedded members not decoded: %+v", m)
	}
	if len(m.Extra) != 1 || string(m.Extra["connectorInstall"]) != `"installed"` {
		t.Fatalf("Extra = %v, want only connectorInstall", m.Extra)
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatal(err)
	}
	if back["state"] != "running" || back["connectorInstall"] != "installed" || back["defaultBucketID"] != "b1" {
		t.Fatalf("round trip lost members: %s", out)
	}
}
