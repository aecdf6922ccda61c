package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Every request body the client can produce is checked against the published schema of
// its resource version. Cluster versions 1.0-1.2 were never published: their bodies are
// checked against the oldest published schema, cluster 1.3 (release 22.11), whose version
// enum accepts "1.0" to "1.3" and whose members are the set the client allows below 1.4.

// schemaVersion is the version whose published schema describes a body of version v.
func schemaVersion(resource, v string) string {
	if resource == apispec.Cluster && !versionAtLeast(v, "1.3") {
		return "1.3"
	}
	return v
}

func validateBody(t *testing.T, resource, version, kind string, body []byte) {
	t.Helper()
	sv := schemaVersion(resource, version)
	schema, from, ok := apispec.Schema("24.02", resource, sv, kind)
	if !ok {
		t.Fatalf("no published %s %s %s schema", resource, sv, kind)
	}
	if err := apispec.Validate(schema, body); err != nil {
		t.Errorf("%s %s %s body (checked against %s from %s) is invalid: %v\n%s", resource, version, kind, sv, from, err, body)
	}
}

// captured runs call against a fake that answers like Astra and returns the bodies sent.
func captured(t *testing.T, clusterVersion string, call func(context.Context, *Client) error) [][]byte {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		switch {
		case strings.Contains(r.URL.Path, "/credentials"):
			reply(w, 201, "application/json", credentialJSON)
		case strings.Contains(r.URL.Path, "/managedClusters"):
			reply(w, 201, "application/json", managedClusterJSON)
		case strings.Contains(r.URL.Path, "/clusters"):
			reply(w, 201, "application/json", fullClusterJSON)
		default:
			reply(w, 201, "application/json", cloudJSON)
		}
	})
	if err := call(context.Background(), f.client(t, func(c *Config) { c.ClusterVersion = clusterVersion })); err != nil {
		t.Fatalf("call: %v", err)
	}
	var bodies [][]byte
	for _, r := range f.requests() {
		if len(r.Body) > 0 {
			bodies = append(bodies, r.Body)
		}
	}
	if len(bodies) == 0 {
		t.Fatal("nothing was sent")
	}
	return bodies
}

// clusterCreatesFor lists the cluster POST inputs a version can express.
func clusterCreatesFor(v string) []ClusterCreate {
	labels := []Label{{Name: "team", Value: "storage"}}
	out := []ClusterCreate{
		{CredentialID: testCredential},
		{Name: "prod-east", CredentialID: testCredential, AccHost: BoolPtr(true), Labels: labels},
		{Name: "prod-east", CredentialID: testCredential, AccHost: BoolPtr(false)},
	}
	if versionAtLeast(v, "1.4") {
		out = append(out, ClusterCreate{Name: "private-1", CredentialID: testCredential, PrivateRouteID: "route-1"})
	}
	if versionAtLeast(v, "1.5") {
		relay := "relayV1"
		if versionAtLeast(v, "1.7") {
			relay = "connectorV2"
		}
		out = append(out,
			ClusterCreate{Name: "connector-1", PrivateRouteID: "route-1", ConnectorCapabilities: []string{relay, "watcherV1", "neptuneV1"}},
			ClusterCreate{CredentialID: testCredential, ConnectorCapabilities: []string{"proxyV1"}, Labels: labels})
	}
	if versionAtLeast(v, "1.7") {
		out = append(out, ClusterCreate{Name: "typed", CredentialID: testCredential, ClusterType: "kubernetes"})
	}
	return out
}

func TestClusterBodiesMatchThePublishedSchemas(t *testing.T) {
	for _, v := range ClusterVersions {
		for _, in := range clusterCreatesFor(v) {
			for _, body := range captured(t, v, func(ctx context.Context, c *Client) error {
				_, err := c.CreateCluster(ctx, testCloud, in)
				return err
			}) {
				validateBody(t, apispec.Cluster, v, apispec.PostRequest, body)
			}
		}
		// A PUT of what a 1.7 server returned, and of a minimal edit.
		var read Cluster
		if err := json.Unmarshal([]byte(fullClusterJSON), &read); err != nil {
			t.Fatal(err)
		}
		read.Name = "renamed"
		for _, obj := range []*Cluster{&read, {ID: testCluster, ClusterStatus: ClusterStatus{Name: "renamed", CredentialID: testCredential}}} {
			for _, body := range captured(t, v, func(ctx context.Context, c *Client) error {
				_, err := c.UpdateCluster(ctx, testCloud, obj)
				return err
			})[:1] {
				validateBody(t, apispec.Cluster, v, apispec.PutRequest, body)
			}
		}
	}
}

// fullManagedClusterJSON is a managed cluster as a 24.02 (managedCluster 1.7) server returns it.
func fullManagedClusterJSON(t *testing.T) string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fullClusterJSON), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "connectorCapabilities")
	m["type"] = json.RawMessage(`"application/astra-managedCluster"`)
	m["defaultBucketID"] = json.RawMessage(`"` + testBucket + `"`)
	out, _ := json.Marshal(m)
	return string(out)
}

func TestManagedClusterBodiesMatchThePublishedSchemas(t *testing.T) {
	for _, v := range ClusterVersions {
		mv := managedClusterVersionFor(v)
		creates := []ManagedClusterCreate{
			{ID: testCluster},
			{ID: testCluster, TridentManagedStateDesired: "managed", DefaultStorageClass: testSC, Labels: []Label{{Name: "a", Value: "b"}}},
		}
		if mv == "1.7" {
			creates = append(creates, ManagedClusterCreate{ID: testCluster, DefaultBucketID: testBucket})
		}
		for _, in := range creates {
			for _, body := range captured(t, v, func(ctx context.Context, c *Client) error {
				_, err := c.CreateManagedCluster(ctx, in)
				return err
			}) {
				validateBody(t, apispec.ManagedCluster, mv, apispec.PostRequest, body)
			}
		}
		var read ManagedCluster
		if err := json.Unmarshal([]byte(fullManagedClusterJSON(t)), &read); err != nil {
			t.Fatal(err)
		}
		read.DefaultStorageClass = testSC
		for _, body := range captured(t, v, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateManagedCluster(ctx, &read)
			return err
		})[:1] {
			validateBody(t, apispec.ManagedCluster, mv, apispec.PutRequest, body)
		}
	}
}

func TestCloudAndCredentialBodiesMatchThePublishedSchemas(t *testing.T) {
	kube, err := KubeconfigCredential("", []byte(testKubeconfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	generic := CredentialCreate{Name: "gcp-sa", KeyType: "generic", KeyStore: map[string]string{"base64": "eyJ0eXBlIjoic2EifQ=="},
		Valid: BoolPtr(true), Labels: []Label{{Name: ReadOnlyLabelPrefix + "credType", Value: "service-account"}}}
	var readCloud Cloud
	if err := json.Unmarshal([]byte(strings.Replace(cloudJSON, `"private"}`, `"GCP"}`, 1)), &readCloud); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		resource, kind string
		call           func(context.Context, *Client) error
	}{
		{apispec.Cloud, apispec.PostRequest, func(ctx context.Context, c *Client) error {
			_, err := c.CreateCloud(ctx, CloudCreate{Name: "private", CloudType: "private"})
			return err
		}},
		{apispec.Cloud, apispec.PostRequest, func(ctx context.Context, c *Client) error {
			_, err := c.CreateCloud(ctx, CloudCreate{Name: "My GCP", CloudType: "GCP", CredentialID: testCredential, DefaultBucketID: testBucket})
			return err
		}},
		{apispec.Cloud, apispec.PutRequest, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateCloud(ctx, &readCloud)
			return err
		}},
		{apispec.Credential, apispec.PostRequest, func(ctx context.Context, c *Client) error {
			_, err := c.CreateCredential(ctx, kube)
			return err
		}},
		{apispec.Credential, apispec.PostRequest, func(ctx context.Context, c *Client) error {
			_, err := c.CreateCredential(ctx, generic)
			return err
		}},
		{apispec.Credential, apispec.PutRequest, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateCredential(ctx, testCredential, kube)
			return err
		}},
		{apispec.Credential, apispec.PutRequest, func(ctx context.Context, c *Client) error {
			_, err := c.UpdateCredential(ctx, testCredential, generic)
			return err
		}},
	}
	for _, c := range cases {
		for _, body := range captured(t, "1.5", c.call)[:1] {
			validateBody(t, c.resource, "1.1", c.kind, body)
		}
	}
}

func TestTheSchemaCheckCatchesABadBody(t *testing.T) {
	schema, _, ok := apispec.Schema("24.02", apispec.Cluster, "1.3", apispec.PostRequest)
	if !ok {
		t.Fatal("no cluster 1.3 schema")
	}
	// What the client refuses to send at 1.3 is indeed invalid there.
	bad := `{"type":"application/astra-cluster","version":"1.3","credentialID":"` + testCredential + `","privateRouteID":"r"}`
	if err := apispec.Validate(schema, []byte(bad)); err == nil {
		t.Fatal("privateRouteID must be invalid at 1.3")
	}
	accepted, err := apispec.AcceptedVersions("22.11", apispec.Cluster)
	if err != nil || strings.Join(accepted, ",") != "1.3,1.2,1.1,1.0" {
		t.Fatalf("the 1.3 schema should accept 1.0-1.3: %v %v", accepted, err)
	}
}
