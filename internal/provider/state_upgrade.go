package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Schema versions of the resources' state. Raise one when the shape of the resource's state
// changes, and add an upgrader from every earlier version plus a fixture of that version's
// state, as the CLIs wrote it, under testdata/state/ (TestStateUpgrades runs them all).
const (
	clusterSchemaVersion                  = 0
	managedClusterSchemaVersion           = 1 // 1: wait_for_running
	kubeconfigCredentialSchemaVersion     = 0
	s3CredentialSchemaVersion             = 0
	serviceAccountCredentialSchemaVersion = 0
	cloudSchemaVersion                    = 0
	bucketSchemaVersion                   = 0
)

var _ resource.ResourceWithUpgradeState = (*managedClusterResource)(nil)

// UpgradeState: version 0 had no wait_for_running. Read as null, it would make every
// existing managed cluster plan an update (null -> true) on the first plan after the
// upgrade; the upgrader gives it the default the resource always behaved with.
func (r *managedClusterResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: jsonStateUpgrader(func(attributes map[string]json.RawMessage) error {
			attributes["wait_for_running"] = json.RawMessage(`true`)
			return nil
		}),
	}
}

// jsonStateUpgrader upgrades state by editing its JSON, as the CLIs store it (the object of
// attributes): no prior schema needs to be kept, and members the edit does not touch pass
// through unchanged. The result is read with the current schema.
func jsonStateUpgrader(edit func(attributes map[string]json.RawMessage) error) resource.StateUpgrader {
	return resource.StateUpgrader{
		StateUpgrader: func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			if req.RawState == nil || len(req.RawState.JSON) == 0 {
				resp.Diagnostics.AddError("Cannot upgrade the resource's state", "The stored state has no JSON form (it predates Terraform 0.12). Refresh it with an older provider release first.")
				return
			}
			var attributes map[string]json.RawMessage
			if err := json.Unmarshal(req.RawState.JSON, &attributes); err != nil {
				resp.Diagnostics.AddError("Cannot upgrade the resource's state", "The stored state is not a JSON object: "+err.Error())
				return
			}
			if err := edit(attributes); err != nil {
				resp.Diagnostics.AddError("Cannot upgrade the resource's state", err.Error())
				return
			}
			out, err := json.Marshal(attributes)
			if err != nil {
				resp.Diagnostics.AddError("Cannot upgrade the resource's state", fmt.Sprintf("encoding the upgraded state: %v", err))
				return
			}
			resp.DynamicValue = &tfprotov6.DynamicValue{JSON: out}
		},
	}
}
