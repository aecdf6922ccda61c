package provider

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The list resources over the plugin protocol, in-process, as a CLI calls them: fault
// injection and edge cases in seconds. TestAccQuery_listResources runs them end to end under
// `terraform query` (Terraform 1.14+; OpenTofu 1.12.6 has no query command).

// protoObject builds an object value of schema with the given string attributes set and
// every other attribute null.
func protoObject(t *testing.T, schema *tfprotov6.Schema, set map[string]string) *tfprotov6.DynamicValue {
	t.Helper()
	typ, ok := schema.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("schema type %s is not an object", schema.ValueType())
	}
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
		if v, ok := set[name]; ok {
			vals[name] = tftypes.NewValue(tftypes.String, v)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// listed is one list result, decoded.
type listed struct {
	name, id string
	object   map[string]any // with include_resource
	errors   []string
}

type listFixture struct {
	t       *testing.T
	sim     *astrasim.Sim
	client  *astra.Client
	server  tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
	private string // the private cloud
	managed string // the ID of the managed private cluster
	other   string // the ID of the unmanaged private cluster
}

func newListFixture(t *testing.T) *listFixture {
	t.Helper()
	ctx := context.Background()
	sim, url, stop, err := astrasim.Serve(astrasim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	f := &listFixture{t: t, sim: sim, private: sim.Seeds().PrivateCloudID}
	client, err := astra.New(astra.Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		t.Fatal(err)
	}
	f.client = client
	for i, name := range []string{"listed-managed", "listed-other"} {
		body, err := astra.KubeconfigCredential(name, astrasim.TestKubeconfig(name, "https://"+name+".k8s.example:6443"))
		if err != nil {
			t.Fatal(err)
		}
		cred, err := client.CreateCredential(ctx, body)
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.CreateCluster(ctx, f.private, astra.ClusterCreate{Name: name, CredentialID: cred.ID})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if _, err := client.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: c.ID}); err != nil {
				t.Fatal(err)
			}
			f.managed = c.ID
		} else {
			f.other = c.ID
		}
	}
	f.server = providerserver.NewProtocol6(New("test", WithWaitSchedule(accWaitSchedule))())()
	f.schemas, err = f.server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{
		Config: protoObject(t, f.schemas.Provider, map[string]string{"endpoint": url, "account_id": sim.AccountID(), "api_token": astrasim.DefaultToken}),
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return f
}

// list runs a list resource with the given filters.
func (f *listFixture) list(typ string, filters map[string]string, includeResource bool, limit int64) []listed {
	f.t.Helper()
	ctx := context.Background()
	lister, ok := f.server.(tfprotov6.ListResourceServer)
	if !ok {
		f.t.Fatal("the provider server does not serve list resources")
	}
	stream, err := lister.ListResource(ctx, &tfprotov6.ListResourceRequest{
		TypeName: typ, Config: protoObject(f.t, f.schemas.ListResourceSchemas[typ], filters),
		IncludeResource: includeResource, Limit: limit,
	})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []listed
	for r := range stream.Results {
		l := listed{name: r.DisplayName}
		for _, d := range r.Diagnostics {
			l.errors = append(l.errors, d.Summary+": "+d.Detail)
		}
		if r.Identity != nil && r.Identity.IdentityData != nil {
			v, err := r.Identity.IdentityData.Unmarshal(tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}})
			if err != nil {
				f.t.Fatal(err)
			}
			var members map[string]tftypes.Value
			must(f.t, v.As(&members))
			must(f.t, members["id"].As(&l.id))
		}
		if r.Resource != nil {
			v, err := r.Resource.Unmarshal(f.schemas.ResourceSchemas[typ].ValueType())
			if err != nil {
				f.t.Fatal(err)
			}
			l.object, _ = goValue(f.t, v).(map[string]any)
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func names(results []listed) string {
	var n []string
	for _, r := range results {
		n = append(n, r.name)
	}
	return strings.Join(n, ",")
}

// TestListResources: astra_cluster lists the clusters (filtered by cloud and management
// state), astra_managed_cluster the managed ones; each result has the object's identity and,
// when asked, its whole state as the resource reads it; the limit is kept; an API failure
// is a diagnostic.
func TestListResources(t *testing.T) {
	f := newListFixture(t)

	got := f.list("astra_cluster", map[string]string{"cloud_id": f.private}, true, 0)
	if names(got) != "listed-managed,listed-other" {
		t.Fatalf("private clusters listed: %q", names(got))
	}
	if got[0].id != f.managed || got[1].id != f.other || len(got[0].errors) > 0 {
		t.Fatalf("identities %s, %s (errors %v); want %s, %s", got[0].id, got[1].id, got[0].errors, f.managed, f.other)
	}
	obj := got[1].object
	if obj["id"] != f.other || obj["name"] != "listed-other" || obj["cloud_id"] != f.private || obj["state"] != "running" ||
		obj["wait_for_running"] != true || obj["timeouts"] != nil {
		t.Fatalf("listed astra_cluster object: %v", obj)
	}

	if got := f.list("astra_cluster", map[string]string{"cloud_id": f.private, "managed_state": "managed"}, false, 0); names(got) != "listed-managed" || got[0].object != nil {
		t.Fatalf("managed_state filter: %q (object %v)", names(got), got[0].object)
	}
	all := f.list("astra_cluster", nil, false, 0)
	if len(all) <= 2 {
		t.Fatalf("all clouds: %d clusters, want the two private ones and the public clouds' discovered ones", len(all))
	}
	if got := f.list("astra_cluster", nil, false, 1); len(got) != 1 {
		t.Fatalf("limit 1: %d results", len(got))
	}

	mc := f.list("astra_managed_cluster", map[string]string{"cloud_id": f.private}, true, 0)
	if names(mc) != "listed-managed" || mc[0].id != f.managed {
		t.Fatalf("managed clusters listed: %q %s", names(mc), mc[0].id)
	}
	if o := mc[0].object; o["cluster_id"] != f.managed || o["managed_state"] != "managed" || o["wait_for_running"] != true {
		t.Fatalf("listed astra_managed_cluster object: %v", o)
	}

	// A filter that cannot match is refused when the CLI validates the list block.
	lister, _ := f.server.(tfprotov6.ListResourceServer)
	v, err := lister.ValidateListResourceConfig(context.Background(), &tfprotov6.ValidateListResourceConfigRequest{
		TypeName: "astra_cluster", Config: protoObject(t, f.schemas.ListResourceSchemas["astra_cluster"], map[string]string{"cloud_id": "private"}),
	})
	if err != nil || len(v.Diagnostics) != 1 || v.Diagnostics[0].Attribute.String() != tftypes.NewAttributePath().WithAttributeName("cloud_id").String() {
		t.Fatalf("ValidateListResourceConfig with cloud_id \"private\": %v %+v", err, v)
	}

	f.sim.AddFault(astrasim.Fault{Method: "GET", Route: "/topology/v1/managedClusters", Kind: astrasim.FaultInternal})
	before := f.sim.Count("GET", "/topology/v1/managedClusters")
	failed := f.list("astra_managed_cluster", nil, false, 0)
	if len(failed) != 1 || len(failed[0].errors) != 1 || !strings.HasPrefix(failed[0].errors[0], "Cannot list managed clusters") {
		t.Fatalf("a failing list answered %+v", failed)
	}
	if f.sim.Count("GET", "/topology/v1/managedClusters") == before {
		t.Fatal("the injected fault did not fire")
	}
}

// TestListResources_bucket: astra_bucket lists the buckets (filtered by provider), each with
// its identity and, when asked, its state as the resource reads it.
func TestListResources_bucket(t *testing.T) {
	f := newListFixture(t)
	ctx := context.Background()
	cred := f.sim.Seeds().GCP.CredentialID
	var ids []string
	for _, b := range []astra.BucketCreate{
		{Name: "listed-gcp", CredentialID: cred, Provider: "gcp", Parameters: astra.BucketParameters{GCP: &astra.GCPBucketParameters{BucketName: "g"}}},
		{Name: "listed-azure", CredentialID: cred, Provider: "azure", Parameters: astra.BucketParameters{Azure: &astra.AzureBucketParameters{StorageAccount: "a", BucketName: "z"}}},
	} {
		created, err := f.client.CreateBucket(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, created.ID)
	}
	if got := f.list("astra_bucket", nil, false, 0); names(got) != "listed-azure,listed-gcp" && names(got) != "listed-gcp,listed-azure" {
		t.Fatalf("buckets listed: %q", names(got))
	}
	got := f.list("astra_bucket", map[string]string{"bucket_provider": "gcp"}, true, 0)
	if names(got) != "listed-gcp" || got[0].id != ids[0] {
		t.Fatalf("gcp buckets listed: %q %v", names(got), got)
	}
	o := got[0].object
	gcp, _ := o["gcp"].(map[string]any)
	if o["id"] != ids[0] || o["bucket_provider"] != "gcp" || o["state"] != "available" || gcp["bucket_name"] != "g" || o["wait_for_available"] != true || o["s3"] != nil {
		t.Fatalf("listed astra_bucket object: %v", o)
	}
}
