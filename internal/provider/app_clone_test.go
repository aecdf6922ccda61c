package provider

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

func mappingSet(pairs ...string) types.Set {
	var elems []attr.Value
	for i := 0; i+1 < len(pairs); i += 2 {
		elems = append(elems, types.ObjectValueMust(appMappingAttrTypes, map[string]attr.Value{
			"source": types.StringValue(pairs[i]), "destination": types.StringValue(pairs[i+1])}))
	}
	return types.SetValueMust(types.ObjectType{AttrTypes: appMappingAttrTypes}, elems)
}

func sourceObject(appID, snapshotID, backupID string, ns, sc types.Set) types.Object {
	str := func(s string) types.String {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	return types.ObjectValueMust(appSourceAttrTypes, map[string]attr.Value{
		"app_id": str(appID), "snapshot_id": str(snapshotID), "backup_id": str(backupID), "namespace_mapping": ns, "storage_class_mapping": sc})
}

// TestAppSourceConverters: source reads into a clone request (mappings sorted, absent
// members empty), a null or unknown source is no clone, and a clone's scope is the
// source's renamed.
func TestAppSourceConverters(t *testing.T) {
	nullSet := types.SetNull(types.ObjectType{AttrTypes: appMappingAttrTypes})
	if _, ok := appSourceOf(types.ObjectNull(appSourceAttrTypes)); ok {
		t.Error("a null source is a clone")
	}
	if _, ok := appSourceOf(types.ObjectUnknown(appSourceAttrTypes)); ok {
		t.Error("an unknown source is a clone")
	}
	src, ok := appSourceOf(sourceObject("a1", "", "b1", mappingSet("web", "web-staging", "db", "db-staging"), nullSet))
	if !ok || src.AppID != "a1" || src.BackupID != "b1" || src.SnapshotID != "" || src.StorageClassMapping != nil ||
		!reflect.DeepEqual(src.NamespaceMapping, []astra.Mapping{{Source: "db", Destination: "db-staging"}, {Source: "web", Destination: "web-staging"}}) {
		t.Fatalf("appSourceOf: %+v", src)
	}
	plan := appValues{Name: types.StringValue("staging"), ClusterID: types.StringValue("c2"),
		Labels: types.MapValueMust(types.StringType, map[string]attr.Value{"env": types.StringValue("staging")})}
	req := appCloneRequest(plan, src, "c1")
	if req.Name != "staging" || req.ClusterID != "c2" || req.SourceClusterID != "c1" || req.SourceAppID != "a1" || req.BackupID != "b1" ||
		len(req.Labels) != 1 || req.Labels[0].Name != "env" || len(req.NamespaceMapping) != 2 {
		t.Errorf("appCloneRequest: %+v", req)
	}
	if got := cloneNamespaces([]astra.NamespaceScope{{Namespace: "web"}}, nil, "staging"); len(got) != 1 || got[0].Namespace != "staging" {
		t.Errorf("cloneNamespaces without a mapping (the namespace is named after the clone): %+v", got)
	}
	got := cloneNamespaces([]astra.NamespaceScope{{Namespace: "web", LabelSelectors: []string{"app=web"}}, {Namespace: "cache"}}, src.NamespaceMapping, "staging")
	want := []astra.NamespaceScope{{Namespace: "web-staging", LabelSelectors: []string{"app=web"}}, {Namespace: "cache"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cloneNamespaces: %+v", got)
	}
	if d := describeScope(want); d != `[{ namespace = "web-staging", label_selectors = ["app=web"] }, { namespace = "cache", label_selectors = [] }]` {
		t.Errorf("describeScope: %s", d)
	}
	v := appFrom(&astra.App{ID: "x", SourceAppID: "a1"}, appValues{Labels: types.MapNull(types.StringType)})
	if v.SourceAppID.ValueString() != "a1" || !appFrom(&astra.App{ID: "y"}, v).SourceAppID.IsNull() {
		t.Errorf("source_app_id: %v", v.SourceAppID)
	}
}

// cloneHCL is a live clone of the test's app into namespace (renamed from the source's
// "default").
func cloneHCL(name, namespace string) string {
	return fmt.Sprintf(`
resource "astra_app" "clone" {
  name       = %q
  cluster_id = astra_managed_cluster.test.id
  namespace_scoped_resources = [{ namespace = %q }]
  source = {
    app_id            = astra_app.test.id
    namespace_mapping = [{ source = "default", destination = %q }]
  }
}
`, name, namespace, namespace)
}

const cloneAddr = "astra_app.clone"

// TestAccApp_clone creates an app as a clone of another in the same cluster: one POST naming
// the source, waited for through provisioning, source_app_id recorded; an empty plan after;
// the plan-time errors of a scope that is not the clone's and of a destination namespace
// that exists; a rename is one ordinary PUT that restores nothing; a new mapping replaces
// the clone.
func TestAccApp_clone(t *testing.T) {
	a := newAccTarget(t, withSim(func(o *astrasim.Options) { o.Delays = astrasim.Delays{Restore: 100 * time.Millisecond} }))
	cred := a.kubeconfigCredential("kube-clone", "clone")
	base := privateManagedHCL(a.cloudID(), cred, `local.storage_classes["ontap-gold"]`, true)
	staging := a.name("staging")
	cloned := a.config(base, appHCL(a.name("web"), "default"), cloneHCL(a.name("web-staging"), staging))
	var counts countDelta
	var cloneID string
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: cloned,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString(cloneAddr, "state", "ready"),
					statecheck.CompareValuePairs(cloneAddr, tfjsonpath.New("source_app_id"), appAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(cloneAddr, tfjsonpath.New("namespaces"), listContaining{staging}),
					expectNull(appAddr, "source_app_id"),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(cloneAddr, &cloneID),
					a.simCheck("two POSTs, the clone polled through provisioning", func(sim *astrasim.Sim) error {
						return expectCounts(sim.Count("POST", routeApps), 2, sim.Restores(cloneID), 0)
					})),
			},
			{Config: cloned, ConfigPlanChecks: emptyPlan()},
			{
				// The clone's scope is the source's renamed: another one is refused before any request.
				Config: a.config(base, appHCL(a.name("web"), "default"), strings.Replace(cloneHCL(a.name("web-staging"), staging),
					`namespace_scoped_resources = [{ namespace = "`+staging+`" }]`, `namespace_scoped_resources = [{ namespace = "`+staging+`", label_selectors = ["app=x"] }]`, 1)),
				ExpectError: errorPhrases("Not the clone's namespaces", `gives: [{ namespace = "`+staging+`", label_selectors = [] }]`),
			},
			{
				Config:      a.config(base, appHCL(a.name("web"), "default"), cloneHCL(a.name("web-staging"), "kube-public")),
				ExpectError: errorPhrases("Destination namespace exists", `Namespace "kube-public" already exists on managed cluster`, "must rename every namespace"),
			},
			{
				PreConfig: func() { a.markCounts(&counts) },
				Config:    a.config(base, appHCL(a.name("web"), "default"), strings.Replace(cloneHCL(a.name("web-staging"), staging), a.name("web-staging"), a.name("web-staging-2"), 1)),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(cloneAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionNoop)),
				Check: a.simCheck("one ordinary PUT, no restore", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeApp), 1, counts.since(sim, "POST "+routeApps), 0, sim.Restores(cloneID), 0)
				}),
			},
			{
				// Another destination replaces the clone.
				Config: a.config(base, appHCL(a.name("web"), "default"), cloneHCL(a.name("web-staging-2"), a.name("staging-b"))),
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(cloneAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(appAddr, plancheck.ResourceActionNoop)),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs(cloneAddr, tfjsonpath.New("source_app_id"), appAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(cloneAddr, tfjsonpath.New("namespaces"), listContaining{a.name("staging-b")}),
				},
			},
		},
	})
}

// TestAppStateWithoutSourceReadsAsNoClone: state written before source and source_app_id
// existed (schema version 0, as now) upgrades with both null, which is what they are for an
// app that is not a clone: adding them needs no state upgrader, and the next plan of such an
// app proposes nothing for them (source null in configuration and state).
func TestAppStateWithoutSourceReadsAsNoClone(t *testing.T) {
	ctx := context.Background()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema := schemas.ResourceSchemas["astra_app"]
	if schema.Version != 0 {
		t.Fatalf("astra_app schema version %d", schema.Version)
	}
	old := `{"id":"9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d","name":"web","cluster_id":"0f284377-e5dc-4dcd-bacd-3197f2b8a347",
"namespace_scoped_resources":[{"namespace":"default","label_selectors":[]}],"cluster_scoped_resources":[],"labels":null,
"state":"ready","state_details":[],"protection_state":"none","protection_state_details":[],"namespaces":["default"],
"app_detected_type":null,"cluster_name":"c","metadata":{"labels":[],"creation_timestamp":"2026-01-01T00:00:00Z",
"modification_timestamp":"2026-01-01T00:00:00Z","created_by":"u"},"timeouts":null,"wait_for_ready":true}`
	got := upgrade(ctx, t, server, schema, "astra_app", 0, []byte(old))
	for _, k := range []string{"source", "source_app_id"} {
		if v, ok := got[k]; !ok || v != nil {
			t.Errorf("%s after the upgrade: %#v (present %v), want null", k, v, ok)
		}
	}
	if got["name"] != "web" {
		t.Errorf("name: %#v", got["name"])
	}
}

// TestAccApp_clonePlanTimeRules: what is wrong with a source is refused at plan time:
// a snapshot and a backup at once, a storage class source that is neither a name nor "*",
// and a storage class mapping below api_version 1.4 (app 2.2).
func TestAccApp_clonePlanTimeRules(t *testing.T) {
	a := newAccTarget(t)
	clone := func(source string) string {
		return fmt.Sprintf(`
resource "astra_app" "clone" {
  name       = "web-staging"
  cluster_id = "0f284377-e5dc-4dcd-bacd-3197f2b8a347"
  namespace_scoped_resources = [{ namespace = "staging" }]
  source = {
    app_id = "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d"
%s
  }
}
`, source)
	}
	steps := []resource.TestStep{
		{Config: a.renderProviderBlock("") + clone(`    snapshot_id = "05c357ed-30ce-432f-bbb0-9d5ff1695428"
    backup_id   = "50e89023-ba84-435d-bb47-1833f4c250ff"`), ExpectError: errorPhrases(`Invalid Attribute Combination`, `"source.backup_id" cannot be specified when "source.snapshot_id" is specified`)},
		{Config: a.renderProviderBlock("") + clone(`    storage_class_mapping = [{ source = "Gold_Class", destination = "ontap-gold" }]`),
			ExpectError: errorPhrases(`Invalid Attribute Value`)},
		{Config: a.renderProviderBlock("1.3") + clone(`    storage_class_mapping = [{ source = "*", destination = "ontap-gold" }]`),
			ExpectError: errorPhrases("Argument needs api_version 1.4", "the provider's api_version is 1.3. Raise api_version (or ASTRA_API_VERSION) to 1.4 or later, or remove storage_class_mapping")},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	a.test(resource.TestCase{Steps: steps})
}
