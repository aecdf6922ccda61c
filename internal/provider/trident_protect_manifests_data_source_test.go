package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"sigs.k8s.io/yaml"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
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
		tpNoSecretInState(),
		// The app alone: its buckets only, in its own Trident protect namespace, its bucketless
		// policy on the default bucket it was given.
		expectString(blog, "protect_namespace", "protect"),
		expectString(blog, "default_bucket_id", e.buckets["aws-east"]),
		statecheck.ExpectKnownValue(blog, tfjsonpath.New("manifests"), knownvalue.ListExact([]knownvalue.Check{
			tpManifest("AppVault.protect.aws-east", "bucket", e.buckets["aws-east"]),
			tpManifest("AppVault.protect.minio", "bucket", e.buckets["minio"]),
			tpManifest("Application.kube-node-lease.blog", "app", e.blog),
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

// tpManifest is an item of `manifests`, by key and source.
func tpManifest(key, sourceKind, sourceID string) knownvalue.Check {
	return knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"key": knownvalue.StringExact(key), "source_kind": knownvalue.StringExact(sourceKind), "source_id": knownvalue.StringExact(sourceID),
		"kind": knownvalue.StringExact(strings.Split(key, ".")[0]), "yaml": knownvalue.StringRegexp(regexp.MustCompile(`^# Rendered from Astra Control `)),
	})
}

// tpExpectedManifests is the cluster's rendering, in order: AppVaults by name, then each
// app (by namespace) with its Schedules and ExecHooks by name.
func tpExpectedManifests(e tpEstate) []knownvalue.Check {
	b, p, h := e.buckets, e.policies, e.hooks
	return []knownvalue.Check{
		tpManifest("AppVault.trident-protect.aws-east", "bucket", b["aws-east"]),
		tpManifest("AppVault.trident-protect.azure-blob", "bucket", b["azure-blob"]),
		tpManifest("AppVault.trident-protect.gcs-backups", "bucket", b["gcs-backups"]),
		tpManifest("AppVault.trident-protect.grid-backups", "bucket", b["grid-backups"]),
		tpManifest("AppVault.trident-protect.minio", "bucket", b["minio"]),
		tpManifest("AppVault.trident-protect.ontap-s3-prod", "bucket", b["ONTAP S3 (prod)"]),
		tpManifest("Application.default.shop", "app", e.shop),
		tpManifest("Schedule.default.shop-daily", "protection policy", p["shop/daily"]),
		tpManifest("Schedule.default.shop-hourly", "protection policy", p["shop/hourly"]),
		tpManifest("Schedule.default.shop-monthly", "protection policy", p["shop/monthly"]),
		tpManifest("Schedule.default.shop-weekly", "protection policy", p["shop/weekly"]),
		tpManifest("ExecHook.default.after-failover", "execution hook", h["after-failover"]),
		tpManifest("ExecHook.default.after-restore", "execution hook", h["after-restore"]),
		tpManifest("ExecHook.default.freeze-backup", "execution hook", h["freeze-backup"]),
		tpManifest("ExecHook.default.freeze-snapshot", "execution hook", h["freeze-snapshot"]),
		tpManifest("ExecHook.default.thaw-backup", "execution hook", h["thaw-backup"]),
		tpManifest("ExecHook.default.thaw-snapshot", "execution hook", h["thaw-snapshot"]),
		tpManifest("Application.kube-node-lease.blog", "app", e.blog),
		tpManifest("Schedule.kube-node-lease.blog-daily", "protection policy", p["blog/daily"]),
		tpManifest("Schedule.kube-node-lease.blog-hourly", "protection policy", p["blog/hourly"]),
		tpManifest("Schedule.kube-node-lease.blog-weekly", "protection policy", p["blog/weekly"]),
	}
}

// tpVault is an AppVault object of the cluster's rendering.
func tpVault(name, providerType string, config map[string]any, keys ...string) map[string]any {
	creds := map[string]any{}
	for _, k := range keys {
		creds[k] = map[string]any{"valueFromSecret": map[string]any{"name": name + "-credentials", "key": k}}
	}
	return tpObject("AppVault", name, "trident-protect", map[string]any{
		"providerType": providerType, "providerConfig": config, "providerCredentials": creds,
		"dataMoverPasswordSecretRef": "tp-repository-passwords",
	})
}

func tpObject(kind, name, namespace string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "protect.trident.netapp.io/v1", "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": namespace}, "spec": spec}
}

// tpSchedule is a Schedule object of the app shop; times holds the granularity's fields.
func tpSchedule(name, vault, granularity, snapshots, backups string, times map[string]any) map[string]any {
	spec := map[string]any{"applicationRef": "shop", "appVaultRef": vault, "granularity": granularity, "enabled": true,
		"backupReclaimPolicy": "Retain", "snapshotRetention": snapshots, "backupRetention": backups}
	for k, v := range times {
		spec[k] = v
	}
	return tpObject("Schedule", name, "default", spec)
}

// tpHook is an ExecHook object of the app shop.
func tpHook(name, stage, action, script string, enabled bool, extra map[string]any) map[string]any {
	spec := map[string]any{"applicationRef": "shop", "stage": stage, "action": action, "enabled": enabled,
		"hookSource": base64.StdEncoding.EncodeToString([]byte(tpScripts[script]))}
	for k, v := range extra {
		spec[k] = v
	}
	return tpObject("ExecHook", name, "default", spec)
}

// tpExpectedObjects are the cluster's objects, written from the mapping's tables.
func tpExpectedObjects() map[string]map[string]any {
	s3 := []string{"accessKeyID", "secretAccessKey"}
	s3Config := func(bucket, endpoint string, extra ...string) map[string]any {
		c := map[string]any{"bucketName": bucket, "endpoint": endpoint}
		for i := 0; i+1 < len(extra); i += 2 {
			c[extra[i]] = extra[i+1]
		}
		return map[string]any{"s3": c}
	}
	image := map[string]any{"type": "containerImage", "value": "^docker.io/bitnami/mysql:.*$"}
	return map[string]map[string]any{
		"AppVault.trident-protect.ontap-s3-prod": tpVault("ontap-s3-prod", "OntapS3", s3Config("astra-prod", "s3.ontap.example.com:8443"), s3...),
		"AppVault.trident-protect.grid-backups":  tpVault("grid-backups", "StorageGridS3", s3Config("tp-backups", "grid.example.com:10443"), s3...),
		// http: secure "false"; the URL's user information is left out.
		"AppVault.trident-protect.minio":    tpVault("minio", "GenericS3", s3Config("backups", "10.0.0.5:9000", "secure", "false"), s3...),
		"AppVault.trident-protect.aws-east": tpVault("aws-east", "AWS", s3Config("acme-astra-backups", "s3.us-east-1.amazonaws.com"), s3...),
		"AppVault.trident-protect.gcs-backups": tpVault("gcs-backups", "GCP",
			map[string]any{"gcp": map[string]any{"bucketName": "acme-gcs-backups", "projectID": "acme-prod"}}, "credentials"),
		"AppVault.trident-protect.azure-blob": tpVault("azure-blob", "Azure",
			map[string]any{"azure": map[string]any{"accountName": "acmestorage", "bucketName": "astra-backups"}}, "accountKey"),
		"Application.default.shop": tpObject("Application", "shop", "default", map[string]any{
			"includedNamespaces": []any{
				map[string]any{"namespace": "default", "labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": "shop"}}},
				map[string]any{"namespace": "default", "labelSelector": map[string]any{"matchExpressions": []any{
					map[string]any{"key": "tier", "operator": "In", "values": []any{"web", "db"}}}}},
				map[string]any{"namespace": "kube-public"},
			},
			"includedClusterScopedResources": []any{
				map[string]any{"groupVersionKind": map[string]any{"group": "rbac.authorization.k8s.io", "version": "v1", "kind": "ClusterRole"},
					"labelSelector": map[string]any{"matchLabels": map[string]any{"app": "shop"}}},
				map[string]any{"groupVersionKind": map[string]any{"group": "", "version": "v1", "kind": "PersistentVolume"}},
			},
		}),
		"Application.kube-node-lease.blog": tpObject("Application", "blog", "kube-node-lease", map[string]any{
			"includedNamespaces": []any{map[string]any{"namespace": "kube-node-lease"}},
		}),
		// The hourly policy names no bucket: the managed cluster's default bucket's AppVault.
		"Schedule.default.shop-hourly": tpSchedule("shop-hourly", "ontap-s3-prod", "Hourly", "24", "1", map[string]any{"minute": "15"}),
		"Schedule.default.shop-daily":  tpSchedule("shop-daily", "grid-backups", "Daily", "7", "14", map[string]any{"minute": "0", "hour": "2"}),
		// Day of week 7 is Sunday, "0".
		"Schedule.default.shop-weekly": tpSchedule("shop-weekly", "gcs-backups", "Weekly", "4", "8",
			map[string]any{"minute": "30", "hour": "3", "dayOfWeek": "0"}),
		"Schedule.default.shop-monthly": tpSchedule("shop-monthly", "azure-blob", "Monthly", "0", "12",
			map[string]any{"minute": "45", "hour": "4", "dayOfMonth": "31"}),
		"ExecHook.default.freeze-snapshot": tpHook("freeze-snapshot", "Pre", "Snapshot", "freeze.sh", true, map[string]any{
			"arguments":        []any{"--timeout", "30"},
			"matchingCriteria": []any{image, map[string]any{"type": "podLabel", "value": "app=shop"}},
		}),
		"ExecHook.default.thaw-snapshot": tpHook("thaw-snapshot", "Post", "Snapshot", "thaw.sh", true, map[string]any{"matchingCriteria": []any{image}}),
		"ExecHook.default.freeze-backup": tpHook("freeze-backup", "Pre", "Backup", "freeze.sh", true, map[string]any{"matchingCriteria": []any{
			map[string]any{"type": "containerName", "value": "mysql"}, map[string]any{"type": "namespaceName", "value": "default"}}}),
		"ExecHook.default.thaw-backup": tpHook("thaw-backup", "Post", "Backup", "thaw.sh", false, map[string]any{"matchingCriteria": []any{
			map[string]any{"type": "podName", "value": "^shop-db-[0-9]+$"}}}),
		"ExecHook.default.after-restore":  tpHook("after-restore", "Post", "Restore", "thaw.sh", true, nil),
		"ExecHook.default.after-failover": tpHook("after-failover", "Post", "Failover", "thaw.sh", true, nil),
	}
}

// tpExpectedSecrets: one per AppVault, with the keys of its provider, and the data mover
// password Secret, which stands for no bucket.
func tpExpectedSecrets(e tpEstate) []knownvalue.Check {
	vault := func(name, bucket, credential string, keys ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, len(keys))
		for i, k := range keys {
			checks[i] = knownvalue.StringExact(k)
		}
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name": knownvalue.StringExact(name + "-credentials"), "namespace": knownvalue.StringExact("trident-protect"),
			"keys": knownvalue.ListExact(checks), "purpose": knownvalue.NotNull(),
			"bucket_id": knownvalue.StringExact(e.buckets[bucket]), "bucket_name": knownvalue.StringExact(bucket),
			"credential_id": knownvalue.StringExact(e.credentials[credential]), "credential_name": knownvalue.StringExact(credential),
		})
	}
	s3 := []string{"accessKeyID", "secretAccessKey"}
	return []knownvalue.Check{
		vault("aws-east", "aws-east", "tp-s3-keys", s3...),
		vault("azure-blob", "azure-blob", "tp-azure-sa", "accountKey"),
		vault("gcs-backups", "gcs-backups", "tp-gcp-sa", "credentials"),
		vault("grid-backups", "grid-backups", "tp-s3-keys", s3...),
		vault("minio", "minio", "tp-s3-keys", s3...),
		vault("ontap-s3-prod", "ONTAP S3 (prod)", "tp-s3-keys", s3...),
		knownvalue.ObjectExact(map[string]knownvalue.Check{
			"name": knownvalue.StringExact("tp-repository-passwords"), "namespace": knownvalue.StringExact("trident-protect"),
			"keys":    knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("KOPIA_PASSWORD"), knownvalue.StringExact("RESTIC_PASSWORD")}),
			"purpose": knownvalue.NotNull(), "bucket_id": knownvalue.Null(), "bucket_name": knownvalue.Null(),
			"credential_id": knownvalue.Null(), "credential_name": knownvalue.Null(),
		}),
	}
}

// tpExpectedWarnings are the estate's differences, in the order the rendering finds them.
func tpExpectedWarnings(e tpEstate) []knownvalue.Check {
	warning := func(object, message string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"object":  knownvalue.StringExact(object),
			"message": knownvalue.StringRegexp(regexp.MustCompile(message)),
		})
	}
	policy := func(app, name string) string {
		return fmt.Sprintf("protection policy %q (%s)", name, e.policies[app+"/"+name])
	}
	return []knownvalue.Check{
		warning(fmt.Sprintf(`bucket "minio" (%s)`, e.buckets["minio"]), `^server URL carries user information, left out`),
		warning(policy("blog", "daily"), `^is disabled in Astra Control: rendered with spec.enabled false`),
		warning(policy("blog", "hourly"), `^names no bucket: its Schedule uses AppVault "ontap-s3-prod", of the default bucket "ONTAP S3 \(prod\)"`),
		warning(fmt.Sprintf(`app "shop" (%s)`, e.shop), `^namespace "default" has 2 label selectors`),
		warning(policy("shop", "hourly"), `^names no bucket: its Schedule uses AppVault "ontap-s3-prod"`),
		warning(policy("shop", "monthly"), `^day of month 31: `),
		warning(policy("shop", "weekly"), `^day of week 7 is rendered as "0"`),
		warning(fmt.Sprintf(`execution hook "after-failover" (%s)`, e.hooks["after-failover"]), `^a failover hook runs when an AppMirrorRelationship fails over`),
	}
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

// TestAccTridentProtectManifests_planTimeDiagnostics drives the CLI: a plan renders the
// estate and shows each rendering warning naming its object (and one about a project given
// for a bucket nothing renders), with one request per listing and one schedule listing per
// app; an ID that names nothing, or a bad argument, fails the plan with a clear error. No
// output shows a credential value.
func TestAccTridentProtectManifests_planTimeDiagnostics(t *testing.T) {
	// Every log at TRACE, the CLI's and the provider's, into files searched at the end.
	logs := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH", filepath.Join(logs, "cli.log"))
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logs, "%s.log"))
	h := newCLIHarness(t, astrasim.Options{Release: "24.02"}, "")
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken, ClusterVersion: "1.7"})
	if err != nil {
		t.Fatal(err)
	}
	e := seedTPEstate(t, c, h.sim().Seeds().PrivateCloudID)
	h.write(fmt.Sprintf(`
data "astra_trident_protect_manifests" "cluster" {
  cluster_id      = %q
  gcp_project_ids = { %q = "acme-prod", %q = "typo" }
}

output "kinds" {
  value = [for m in data.astra_trident_protect_manifests.cluster.manifests : m.kind]
}
`, e.clusterID, e.buckets["gcs-backups"], e.buckets["unused"]))
	r, sent := tpPlanCounting(h)
	if want := map[string]int{
		"GET /topology/v1/managedClusters/{managedCluster_id}": 1, "GET /k8s/v2/apps": 1, "GET /k8s/v1/apps/{app_id}/schedules": 2,
		"GET /core/v1/executionHooks": 1, "GET /core/v1/hookSources": 1, "GET /topology/v1/buckets": 1, "GET /core/v1/credentials": 1,
	}; fmt.Sprint(sent) != fmt.Sprint(want) {
		t.Errorf("one plan by cluster sent %v, want %v", sent, want)
	}
	expectOutput(t, "the plan", r,
		fmt.Sprintf(`Warning: Trident protect: bucket "minio" (%s)`, e.buckets["minio"]),
		"server URL carries user information, left out (credentials belong in the Secret)",
		fmt.Sprintf(`Warning: Trident protect: protection policy "weekly" (%s)`, e.policies["shop/weekly"]),
		`day of week 7 is rendered as "0": Trident protect reads both as Sunday`,
		fmt.Sprintf(`Warning: Trident protect: execution hook "after-failover" (%s)`, e.hooks["after-failover"]),
		"Warning: No Google Cloud bucket with this ID is rendered",
		fmt.Sprintf("gcp_project_ids names bucket %s, which is not a Google Cloud bucket", e.buckets["unused"]),
		`"AppVault"`, `"ExecHook"`)
	if n := strings.Count(r.out, "Warning: Trident protect: "); n != 8 {
		t.Errorf("%d rendering warnings in the plan, want 8 (one per object):\n%s", n, r.out)
	}
	for _, s := range tpSecretForms() {
		if strings.Contains(r.out, s) {
			t.Errorf("the plan prints the credential value %q", s)
		}
	}
	tpNoSecretInLogs(t, logs)

	// One app: its own hooks' listing; the cloud is not read, the managed cluster has a default bucket.
	h.write(fmt.Sprintf("data \"astra_trident_protect_manifests\" \"shop\" {\n  app_id = %q\n}\n", e.shop))
	if _, sent := tpPlanCounting(h); fmt.Sprint(sent) != fmt.Sprint(map[string]int{
		"GET /k8s/v2/apps/{app_id}": 1, "GET /topology/v1/managedClusters/{managedCluster_id}": 1, "GET /k8s/v1/apps/{app_id}/schedules": 1,
		"GET /k8s/v1/apps/{app_id}/executionHooks": 1, "GET /core/v1/hookSources": 1, "GET /topology/v1/buckets": 1, "GET /core/v1/credentials": 1,
	}) {
		t.Errorf("one plan by app sent %v", sent)
	}

	missing := "0e9d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b"
	for _, tt := range []struct {
		name, body string
		want       []string
	}{
		{"an app that does not exist", `app_id = "` + missing + `"`,
			[]string{"Error: App not found", "Astra Control has no app with ID " + missing + "."}},
		{"a cluster that is not managed", `cluster_id = "` + missing + `"`,
			[]string{"Error: Managed cluster not found", "Astra Control manages no cluster with ID " + missing + ": its apps are rendered only while it is managed."}},
		{"a default bucket that does not exist", `app_id = "` + e.shop + `"` + "\n" + `default_bucket_id = "` + missing + `"`,
			[]string{"Error: Bucket not found", "Astra Control has no bucket with ID " + missing + "."}},
		{"both IDs", `app_id = "` + e.shop + `"` + "\n" + `cluster_id = "` + e.clusterID + `"`,
			[]string{"Error: Invalid Attribute Combination", "Exactly one of these attributes must be configured: [app_id,cluster_id]"}},
		{"neither ID", `protect_namespace = "trident-protect"`,
			[]string{"Error: Missing Attribute Configuration", "Exactly one of these attributes must be configured: [app_id,cluster_id]"}},
		{"a namespace Kubernetes refuses", `app_id = "` + e.shop + `"` + "\n" + `protect_namespace = "Trident_Protect"`,
			[]string{"Error: Invalid DNS-1123 label", `"Trident_Protect" is not a Kubernetes name`}},
	} {
		h.write("data \"astra_trident_protect_manifests\" \"x\" {\n" + tt.body + "\n}\n")
		r := h.plan()
		if r.err == nil {
			t.Errorf("%s: the plan succeeded:\n%s", tt.name, r.out)
			continue
		}
		expectOutput(t, tt.name, r, tt.want...)
	}
}

// tpPlanCounting plans, failing the test if the plan fails, and returns the requests it sent
// by route.
func tpPlanCounting(h *cliHarness) (cliResult, map[string]int) {
	h.t.Helper()
	before := h.sim().Counts()
	r := h.plan()
	if r.err != nil {
		h.t.Fatalf("plan: %v\n%s", r.err, r.out)
	}
	sent := map[string]int{}
	for route, n := range h.sim().Counts() {
		if d := n - before[route]; d > 0 {
			sent[route] = d
		}
	}
	return r, sent
}

// tpNoSecretInLogs searches every log file under dir for the estate's credential values.
func tpNoSecretInLogs(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil || len(files) < 2 {
		t.Fatalf("log files %v (%v): want the CLI's and the provider's", files, err)
	}
	read, reads := 0, false
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		read += len(raw)
		reads = reads || strings.Contains(string(raw), "/topology/v1/buckets")
		for _, s := range tpSecretForms() {
			if strings.Contains(string(raw), s) {
				t.Errorf("%s holds the credential value %q", filepath.Base(f), s)
			}
		}
	}
	if !strings.Contains(strings.Join(files, " "), "cli.log") || read < 10000 || !reads {
		t.Errorf("%d bytes of logs in %v, the bucket listing logged: %v; TRACE logging did not happen", read, files, reads)
	}
}
