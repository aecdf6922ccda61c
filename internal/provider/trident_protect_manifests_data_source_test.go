package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"sigs.k8s.io/yaml"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect/crdcheck"
)

// tpHCL renders the estate by cluster (with a data mover password Secret and the Google
// Cloud bucket's project) and renders the app blog alone, in another Trident protect
// namespace, with another default bucket.
func tpHCL(e tpEstate) string {
	return fmt.Sprintf(`
data "astra_trident_protect_manifests" "cluster" {
  cluster_id                 = %q
  data_mover_password_secret = "tp-repository-passwords"
  gcp_project_ids            = { %q = "acme-prod" }
}

data "astra_trident_protect_manifests" "blog" {
  app_id            = %q
  protect_namespace = "protect"
  default_bucket_id = %q
}
`, e.clusterID, e.buckets["gcs-backups"], e.blog, e.buckets["aws-east"])
}

// TestAccTridentProtectManifests_estate renders the seeded estate: every resource kind with
// real values (a bucket of each provider, apps with and without label selectors and
// cluster-scoped resources, each policy granularity, hooks of each stage and action),
// checked field by field in `objects`, against `manifests`, `yaml` and `secrets`; the
// warnings name their objects; no credential value is anywhere in state; and the estate is
// read with listings, never one GET per bucket, hook or credential.
func TestAccTridentProtectManifests_estate(t *testing.T) {
	a := newAccTarget(t, withAPIVersion("1.7"))
	a.requireSim("seeds a managed cluster with buckets of every provider, apps, policies and hooks")
	e := seedTPEstate(t, a.client, a.cloudID())
	cluster, blog := "data.astra_trident_protect_manifests.cluster", "data.astra_trident_protect_manifests.blog"
	objects := func(key string) tfjsonpath.Path { return tfjsonpath.New("objects").AtMapKey(key) }
	checks := []statecheck.StateCheck{
		expectString(cluster, "trident_protect_release", tridentprotect.DocsRelease),
		expectString(cluster, "protect_namespace", "trident-protect"),
		expectString(cluster, "default_bucket_id", e.buckets["ONTAP S3 (prod)"]),
		statecheck.ExpectKnownValue(cluster, tfjsonpath.New("manifests"), knownvalue.ListExact(tpExpectedManifests(e))),
		statecheck.ExpectKnownValue(cluster, tfjsonpath.New("secrets"), knownvalue.ListExact(tpExpectedSecrets(e))),
		statecheck.ExpectKnownValue(cluster, tfjsonpath.New("warnings"), knownvalue.ListExact(tpExpectedWarnings(e))),
		tpYAMLMatchesObjects(cluster),
		tpYAMLMatchesObjects(blog),
		tpObjectsAcceptedByCRDs(t, cluster),
		tpObjectsAcceptedByCRDs(t, blog),
		tpNoSecretInState(),
		// The app alone: its buckets only, in its own Trident protect namespace, its bucketless
		// policy on the default bucket it was given.
		expectString(blog, "protect_namespace", "protect"),
		expectString(blog, "default_bucket_id", e.buckets["aws-east"]),
		statecheck.ExpectKnownValue(blog, tfjsonpath.New("manifests"), knownvalue.ListExact([]knownvalue.Check{
			tpManifest("AppVault.protect.aws-east", "bucket", e.buckets["aws-east"]),
			tpManifest("AppVault.protect.minio", "bucket", e.buckets["minio"]),
			tpManifest("Application.kube-node-lease.blog-79a021", "app", e.blog),
			tpManifest("Schedule.kube-node-lease.blog-daily", "protection policy", e.policies["blog/daily"]),
			tpManifest("Schedule.kube-node-lease.blog-hourly", "protection policy", e.policies["blog/hourly"]),
			tpManifest("Schedule.kube-node-lease.blog-weekly", "protection policy", e.policies["blog/weekly"]),
		})),
		statecheck.ExpectKnownValue(blog, objects("Schedule.kube-node-lease.blog-hourly").AtMapKey("spec").AtMapKey("appVaultRef"),
			knownvalue.StringExact("aws-east")),
		statecheck.ExpectKnownValue(blog, objects("AppVault.protect.aws-east").AtMapKey("spec"), knownExact(map[string]any{
			"providerType":   "AWS",
			"providerConfig": map[string]any{"s3": map[string]any{"bucketName": "acme-astra-backups", "endpoint": "s3.us-east-1.amazonaws.com"}},
			"providerCredentials": map[string]any{
				"accessKeyID":     map[string]any{"valueFromSecret": map[string]any{"name": "aws-east-credentials", "key": "accessKeyID"}},
				"secretAccessKey": map[string]any{"valueFromSecret": map[string]any{"name": "aws-east-credentials", "key": "secretAccessKey"}},
			},
		})),
		statecheck.ExpectKnownValue(blog, tfjsonpath.New("secrets"), knownvalue.ListSizeExact(2)),
		statecheck.ExpectKnownValue(blog, tfjsonpath.New("secrets").AtSliceIndex(0).AtMapKey("namespace"), knownvalue.StringExact("protect")),
	}
	for key, want := range tpExpectedObjects() {
		checks = append(checks, statecheck.ExpectKnownValue(cluster, objects(key), knownExact(want)))
	}
	var counts countDelta
	a.test(resource.TestCase{
		Steps: []resource.TestStep{{
			PreConfig:         func() { a.markCounts(&counts) },
			Config:            a.config(tpHCL(e)),
			ConfigStateChecks: checks,
			Check: a.simCheck("the estate is read with listings", func(sim *astrasim.Sim) error {
				total, byRoute := counts.all(sim)
				if total == 0 {
					return fmt.Errorf("no request counted: the check proves nothing")
				}
				for route, n := range byRoute {
					for _, one := range []string{"GET /topology/v1/buckets/{bucket_id}", "GET /core/v1/credentials/{credential_id}",
						"GET /core/v1/hookSources/{hookSource_id}", "GET /core/v1/executionHooks/{executionHook_id}"} {
						if route == one && n > 0 {
							return fmt.Errorf("%d requests %s: the data source reads objects one by one", n, route)
						}
					}
				}
				return nil
			}),
		}},
	})
}

// knownExact is the exact check of a manifest tree (objects, lists, strings, booleans).
func knownExact(v any) knownvalue.Check {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]knownvalue.Check, len(x))
		for k, e := range x {
			m[k] = knownExact(e)
		}
		return knownvalue.ObjectExact(m)
	case []any:
		l := make([]knownvalue.Check, len(x))
		for i, e := range x {
			l[i] = knownExact(e)
		}
		return knownvalue.ListExact(l)
	case string:
		return knownvalue.StringExact(x)
	case bool:
		return knownvalue.Bool(x)
	}
	panic(fmt.Sprintf("knownExact: %T", v))
}

// stateCheckFunc adapts a function to statecheck.StateCheck.
type stateCheckFunc func(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}

// tpAttributes are a data source's attributes in the state, as JSON decodes them.
func tpAttributes(req statecheck.CheckStateRequest, addr string) (map[string]any, error) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		return nil, fmt.Errorf("no state")
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == addr {
			return r.AttributeValues, nil
		}
	}
	return nil, fmt.Errorf("%s is not in the state", addr)
}

// tpYAMLMatchesObjects: the `yaml` stream holds every manifest's `yaml`, in order, each
// decoding to the manifest's object in `objects`, and nothing else.
func tpYAMLMatchesObjects(addr string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		attrs, err := tpAttributes(req, addr)
		if err != nil {
			resp.Error = err
			return
		}
		stream, _ := attrs["yaml"].(string)
		manifests, _ := attrs["manifests"].([]any)
		objects, _ := attrs["objects"].(map[string]any)
		docs := strings.Split(stream, "---\n")[1:]
		if len(docs) != len(manifests) || len(objects) != len(manifests) || len(manifests) == 0 {
			resp.Error = fmt.Errorf("%s: %d YAML documents, %d manifests, %d objects", addr, len(docs), len(manifests), len(objects))
			return
		}
		for i, raw := range manifests {
			m, _ := raw.(map[string]any)
			key, _ := m["key"].(string)
			if m["yaml"] != docs[i] {
				resp.Error = fmt.Errorf("%s: document %d is not manifest %s's yaml:\n%s", addr, i, key, docs[i])
				return
			}
			var decoded map[string]any
			if err := yaml.Unmarshal([]byte(docs[i]), &decoded); err != nil {
				resp.Error = fmt.Errorf("%s: %s: %w", addr, key, err)
				return
			}
			meta, _ := decoded["metadata"].(map[string]any)
			if got := fmt.Sprintf("%s.%s.%s", decoded["kind"], meta["namespace"], meta["name"]); got != key {
				resp.Error = fmt.Errorf("%s: document %d is %s, its manifest %s", addr, i, got, key)
				return
			}
			want, _ := json.Marshal(objects[key])
			got, _ := json.Marshal(decoded)
			if string(want) != string(got) {
				resp.Error = fmt.Errorf("%s: %s: the YAML decodes to\n%s\nobjects holds\n%s", addr, key, got, want)
				return
			}
		}
	})
}

// tpNoSecretInState: no credential value of the estate, as it is or base64-encoded, is
// anywhere in the state.
func tpNoSecretInState() statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		raw, err := json.Marshal(req.State)
		if err != nil {
			resp.Error = err
			return
		}
		for _, s := range tpSecretForms() {
			if strings.Contains(string(raw), s) {
				resp.Error = fmt.Errorf("the state holds the credential value %q", s)
				return
			}
		}
		if !strings.Contains(string(raw), "AppVault") {
			resp.Error = fmt.Errorf("the state holds no rendering: the check proves nothing")
		}
	})
}

// tpObjectsAcceptedByCRDs: every object of the rendering in state is one Trident protect's
// CRDs accept (crdcheck).
func tpObjectsAcceptedByCRDs(t *testing.T, addr string) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		attrs, err := tpAttributes(req, addr)
		if err != nil {
			resp.Error = err
			return
		}
		objects, _ := attrs["objects"].(map[string]any)
		if len(objects) == 0 {
			resp.Error = fmt.Errorf("%s: no objects: the check proves nothing", addr)
			return
		}
		var refused []string
		for key, o := range objects {
			obj, _ := o.(map[string]any)
			if errs := crdcheck.Refusals(t, obj); len(errs) > 0 {
				refused = append(refused, key+": "+strings.Join(errs, "; "))
			}
		}
		if len(refused) > 0 {
			resp.Error = fmt.Errorf("%s: Trident protect's CRDs refuse %s", addr, strings.Join(refused, "\n"))
		}
	})
}
