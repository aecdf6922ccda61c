package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var _ action.ActionWithConfigure = (*appSnapshotAction)(nil)

// appSnapshotTimeout: a snapshot is a CSI volume snapshot per volume, minutes at most.
const appSnapshotTimeout = 30 * time.Minute

// appSnapshotAction is astra_app_snapshot: take a snapshot of an app now.
type appSnapshotAction struct{ actionHolder }

func newAppSnapshotAction() action.Action { return &appSnapshotAction{} }

type appSnapshotActionModel struct {
	AppID      types.String `tfsdk:"app_id"`
	Name       types.String `tfsdk:"name"`
	NamePrefix types.String `tfsdk:"name_prefix"`
	BucketID   types.String `tfsdk:"bucket_id"`
	Timeout    types.String `tfsdk:"timeout"`
}

func (a *appSnapshotAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_snapshot"
}

func (a *appSnapshotAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	name, prefix := runNameAttributes("snapshot")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes a snapshot of an app now (`POST /k8s/v1/apps/{app_id}/appSnaps`) and waits until it is " +
			"`completed`, reporting its state as it goes; a snapshot that fails fails the action with the service's reasons. " +
			"Run it with `terraform apply -invoke=action.astra_app_snapshot.<name>`, or from a resource's " +
			"`lifecycle { action_trigger { ... } }` (for example before a change to a workload of the app). Terraform 1.14 " +
			"or later; OpenTofu has no actions. The snapshot is not managed by Terraform afterwards.\n\n" +
			"The action reports only a snapshot its own request took: when the answer to that request is lost, it looks for the " +
			"snapshot by name (for up to the provider's `request_timeout`, as the service may still be acting on it) and accepts " +
			"it only if it was created after the request was sent; otherwise it fails saying that no new snapshot was taken.",
		Attributes: map[string]schema.Attribute{
			"app_id":      appIDAttribute("to snapshot"),
			"name":        name,
			"name_prefix": prefix,
			"bucket_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Bucket that keeps the snapshot's metadata: Astra Control Center 24.02 (`api_version` " +
					"1.7) and clusters with the `neptuneV1` capability only. Default: none.",
				Validators: []validator.String{validate.UUID()},
			},
			"timeout": actionTimeoutAttribute("the snapshot", appSnapshotTimeout),
		},
	}
}

func (a *appSnapshotAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m appSnapshotActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	name := runName("snapshot", m.Name, m.NamePrefix, time.Now())
	calls := appSnapshotCalls(client, appID)
	calls.post = func(ctx context.Context) (*astra.AppSnapshot, error) {
		return client.CreateAppSnapshot(ctx, appID, astra.AppSnapshotCreate{Name: name, BucketID: m.BucketID.ValueString()})
	}
	takeAppRun(ctx, &a.actionHolder, client, calls, appID, name, isSet(m.Name), actionTimeout(m.Timeout, appSnapshotTimeout),
		describeSnapshot, &progress{send: resp.SendProgress}, &resp.Diagnostics)
}

// describeSnapshot is a snapshot's progress line.
func describeSnapshot(s *astra.AppSnapshot) string {
	return fmt.Sprintf("snapshot %q (%s): %s", s.Name, s.ID, s.State)
}
