package echo

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var ctx = context.Background()

// TestCreatePlanIsTheRecordedObject: a create's plan, for each recorded instance, is the
// recorded object: the configured values and the recorded computed ones.
func TestCreatePlanIsTheRecordedObject(t *testing.T) {
	for form, compiled := range forms {
		s, _ := testServerOn(t, compiled)
		for typeName, names := range fleetConfigs {
			for i := range 2 {
				address := fmt.Sprintf("%s.%s[%d]", typeName, map[string]string{
					"astra_kubeconfig_credential": "k", "astra_cluster": "c", "astra_managed_cluster": "m"}[typeName], i)
				t.Run(form+"/"+address, func(t *testing.T) {
					f := recordedAt(t, s, address)
					config := configOf(t, f, names...)
					resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
						PriorState: dv(t, f.typ, tftypes.NewValue(f.typ, nil)), ProposedNewState: dv(t, f.typ, config), Config: dv(t, f.typ, config)})
					if err != nil {
						t.Fatal(err)
					}
					noDiags(t, resp.Diagnostics)
					if got := value(t, f.typ, resp.PlannedState); !got.Equal(f.value) {
						t.Errorf("planned %v\nwant %v", got, f.value)
					}
				})
			}
		}
	}
}

// TestCreateWithUnknownKeyPlansUnknowns: a config value another resource will know leaves
// the computed attributes unknown and the configured ones as they are; the apply, whose
// config is known, fills them with the recorded values and the recorded identity.
func TestCreateWithUnknownKeyPlansUnknowns(t *testing.T) {
	s, _ := testServer(t)
	f := recordedAt(t, s, "astra_cluster.c[1]")
	config := configOf(t, f, fleetConfigs["astra_cluster"]...)
	unknownConfig := with(t, config, "credential_id", tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
	plan, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: dv(t, f.typ, tftypes.NewValue(f.typ, nil)), ProposedNewState: dv(t, f.typ, unknownConfig), Config: dv(t, f.typ, unknownConfig)})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, plan.Diagnostics)
	var planned map[string]tftypes.Value
	if err := value(t, f.typ, plan.PlannedState).As(&planned); err != nil {
		t.Fatal(err)
	}
	var cfg map[string]tftypes.Value
	_ = config.As(&cfg)
	for _, a := range s.schemas.resources["astra_cluster"].Block.Attributes {
		got := planned[a.Name]
		switch {
		case a.Name == "credential_id":
			if got.IsKnown() {
				t.Errorf("credential_id planned %v, want unknown as configured", got)
			}
		case !cfg[a.Name].IsNull():
			if !got.Equal(cfg[a.Name]) {
				t.Errorf("%s planned %v, want the configured %v", a.Name, got, cfg[a.Name])
			}
		case a.Computed:
			if got.IsKnown() {
				t.Errorf("%s planned %v, want unknown", a.Name, got)
			}
		default:
			if !got.IsNull() {
				t.Errorf("%s planned %v, want null", a.Name, got)
			}
		}
	}

	apply, err := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: dv(t, f.typ, tftypes.NewValue(f.typ, nil)), PlannedState: plan.PlannedState, Config: dv(t, f.typ, config)})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, apply.Diagnostics)
	if got := value(t, f.typ, apply.NewState); !got.Equal(f.value) {
		t.Errorf("applied %v\nwant %v", got, f.value)
	}
	idType := s.schemas.identityTypes["astra_cluster"]
	if apply.NewIdentity == nil {
		t.Fatal("no identity after a create")
	}
	if got := value(t, idType, apply.NewIdentity.IdentityData); !f.identity.IsNull() && !got.Equal(f.identity) {
		t.Errorf("identity %v, want the recorded %v", got, f.identity)
	}
}

// TestCreateNotRecorded: a configuration the record does not hold is an error, not a guess.
func TestCreateNotRecorded(t *testing.T) {
	s, _ := testServer(t)
	f := recordedAt(t, s, "astra_cluster.c[0]")
	config := with(t, configOf(t, f, fleetConfigs["astra_cluster"]...), "cloud_id", tftypes.NewValue(tftypes.String, "another-cloud"))
	resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: dv(t, f.typ, tftypes.NewValue(f.typ, nil)), ProposedNewState: dv(t, f.typ, config), Config: dv(t, f.typ, config)})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
		t.Errorf("diagnostics %v, want one error", resp.Diagnostics)
	}
}

// TestUpdateNoOpAndDestroyPlanAsProposed: with a prior state, or for a destroy, the plan is
// Terraform's proposed new state itself (the very bytes), the prior private data and identity.
func TestUpdateNoOpAndDestroyPlanAsProposed(t *testing.T) {
	s, reads := testServer(t)
	f := recordedAt(t, s, "astra_managed_cluster.m[0]")
	prior := dv(t, f.typ, f.value)
	identity := &tfprotov6.ResourceIdentityData{IdentityData: dv(t, s.schemas.identityTypes["astra_managed_cluster"], f.identity)}
	for name, proposed := range map[string]*tfprotov6.DynamicValue{
		"no-op":   dv(t, f.typ, f.value),
		"update":  dv(t, f.typ, with(t, f.value, "default_storage_class", tftypes.NewValue(tftypes.String, "other"))),
		"destroy": dv(t, f.typ, tftypes.NewValue(f.typ, nil)),
	} {
		resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_managed_cluster",
			PriorState: prior, ProposedNewState: proposed, Config: proposed, PriorPrivate: []byte("private"), PriorIdentity: identity})
		if err != nil {
			t.Fatal(err)
		}
		noDiags(t, resp.Diagnostics)
		if resp.PlannedState != proposed || string(resp.PlannedPrivate) != "private" || resp.PlannedIdentity != identity {
			t.Errorf("%s: planned %+v, want the proposed new state, prior private data and identity", name, resp)
		}
	}
	if *reads != 0 {
		t.Errorf("the recorded state was read %d times; plans of existing objects need none", *reads)
	}
}

// TestApplyOfAKnownPlanIsThePlan: an update's planned state is applied as it is, with the
// planned identity and private data.
func TestApplyOfAKnownPlanIsThePlan(t *testing.T) {
	s, reads := testServer(t)
	f := recordedAt(t, s, "astra_cluster.c[0]")
	planned := dv(t, f.typ, f.value)
	identity := &tfprotov6.ResourceIdentityData{IdentityData: dv(t, s.schemas.identityTypes["astra_cluster"], f.identity)}
	resp, err := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "astra_cluster",
		PriorState: planned, PlannedState: planned, Config: planned, PlannedPrivate: []byte("p"), PlannedIdentity: identity})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, resp.Diagnostics)
	if resp.NewState != planned || resp.NewIdentity != identity || string(resp.Private) != "p" {
		t.Errorf("applied %+v, want the plan as it is", resp)
	}
	null := dv(t, f.typ, tftypes.NewValue(f.typ, nil))
	resp, err = s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{TypeName: "astra_cluster", PriorState: planned, PlannedState: null, Config: null})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, resp.Diagnostics)
	if !isNull(resp.NewState) {
		t.Errorf("destroy: new state %v, want null", resp.NewState)
	}
	if *reads != 0 {
		t.Errorf("the recorded state was read %d times; applying a known plan needs none", *reads)
	}
}

// TestReadAndUpgradeEchoTheirInput: a read answers the current state, private data and
// identity as they came; an upgrade, the raw JSON.
func TestReadAndUpgradeEchoTheirInput(t *testing.T) {
	s, reads := testServer(t)
	f := recordedAt(t, s, "astra_kubeconfig_credential.k[1]")
	current := dv(t, f.typ, f.value)
	identity := &tfprotov6.ResourceIdentityData{IdentityData: dv(t, s.schemas.identityTypes["astra_kubeconfig_credential"], f.identity)}
	read, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "astra_kubeconfig_credential",
		CurrentState: current, Private: []byte("p"), CurrentIdentity: identity})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, read.Diagnostics)
	if read.NewState != current || read.NewIdentity != identity || string(read.Private) != "p" {
		t.Errorf("read %+v, want the current state, private data and identity", read)
	}

	raw := []byte(`{"id":"x","name":"n"}`)
	up, err := s.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: "astra_kubeconfig_credential", RawState: &tfprotov6.RawState{JSON: raw}})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, up.Diagnostics)
	if up.UpgradedState == nil || !bytes.Equal(up.UpgradedState.JSON, raw) || up.UpgradedState.MsgPack != nil {
		t.Errorf("upgraded %+v, want the raw JSON", up.UpgradedState)
	}
	upID, err := s.UpgradeResourceIdentity(ctx, &tfprotov6.UpgradeResourceIdentityRequest{TypeName: "astra_kubeconfig_credential", RawIdentity: &tfprotov6.RawState{JSON: []byte(`{"id":"x"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, upID.Diagnostics)
	if string(upID.UpgradedIdentity.IdentityData.JSON) != `{"id":"x"}` {
		t.Errorf("upgraded identity %+v, want the raw JSON", upID.UpgradedIdentity.IdentityData)
	}
	if *reads != 0 {
		t.Errorf("the recorded state was read %d times; reads and upgrades need none", *reads)
	}
}

// TestImportByIDAndByIdentity: an import finds the recorded object by its ID or identity.
func TestImportByIDAndByIdentity(t *testing.T) {
	for form, compiled := range forms {
		t.Run(form, func(t *testing.T) { testImport(t, compiled) })
	}
}

func testImport(t *testing.T, compiled bool) {
	s, _ := testServerOn(t, compiled)
	f := recordedAt(t, s, "astra_cluster.c[1]")
	var attrs map[string]tftypes.Value
	_ = f.value.As(&attrs)
	var id string
	_ = attrs["id"].As(&id)
	idType := s.schemas.identityTypes["astra_cluster"]
	identity := tftypes.NewValue(idType, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})
	for name, req := range map[string]*tfprotov6.ImportResourceStateRequest{
		"id":       {TypeName: "astra_cluster", ID: id},
		"identity": {TypeName: "astra_cluster", Identity: &tfprotov6.ResourceIdentityData{IdentityData: dv(t, idType, identity)}},
	} {
		resp, err := s.ImportResourceState(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		noDiags(t, resp.Diagnostics)
		if len(resp.ImportedResources) != 1 {
			t.Fatalf("by %s: %d imported, want 1", name, len(resp.ImportedResources))
		}
		got := resp.ImportedResources[0]
		if v := value(t, f.typ, got.State); !v.Equal(f.value) {
			t.Errorf("by %s: imported %v\nwant %v", name, v, f.value)
		}
		if got.Identity == nil || !value(t, idType, got.Identity.IdentityData).Equal(identity) {
			t.Errorf("by %s: identity %v, want %v", name, got.Identity, identity)
		}
	}
	resp, err := s.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: "astra_cluster", ID: "no-such-id"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Diagnostics) != 1 {
		t.Errorf("an unrecorded ID: diagnostics %v, want one error", resp.Diagnostics)
	}
}

// TestDataSourceReadIsTheRecordedObject: a data source read answers the recorded object.
func TestDataSourceReadIsTheRecordedObject(t *testing.T) {
	for form, compiled := range forms {
		t.Run(form, func(t *testing.T) { testDataSourceRead(t, compiled) })
	}
}

func testDataSourceRead(t *testing.T, compiled bool) {
	s, _ := testServerOn(t, compiled)
	f := recordedAt(t, s, "data.astra_cluster.first")
	resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "astra_cluster", Config: dv(t, f.typ, configOf(t, f, "id"))})
	if err != nil {
		t.Fatal(err)
	}
	noDiags(t, resp.Diagnostics)
	if got := value(t, f.typ, resp.State); !got.Equal(f.value) {
		t.Errorf("read %v\nwant %v", got, f.value)
	}
}

// TestStateIsReadOnce: the recorded state is read on the first create, and only then.
func TestStateIsReadOnce(t *testing.T) {
	s, reads := testServer(t)
	for _, address := range []string{"astra_managed_cluster.m[0]", "astra_managed_cluster.m[1]"} {
		f := recordedAt(t, s, address)
		config := configOf(t, f, "cluster_id")
		resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: "astra_managed_cluster",
			PriorState: dv(t, f.typ, tftypes.NewValue(f.typ, nil)), ProposedNewState: dv(t, f.typ, config), Config: dv(t, f.typ, config)})
		if err != nil {
			t.Fatal(err)
		}
		noDiags(t, resp.Diagnostics)
	}
	if *reads != 1 {
		t.Errorf("the recorded state was read %d times, want once", *reads)
	}
}
