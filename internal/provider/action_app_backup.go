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

var _ action.ActionWithConfigure = (*appBackupAction)(nil)

// appBackupTimeout: a backup copies every volume to the object store, hours for a large app.
const appBackupTimeout = 2 * time.Hour

// appBackupAction is astra_app_backup: take a backup of an app now.
type appBackupAction struct{ actionHolder }

func newAppBackupAction() action.Action { return &appBackupAction{} }

type appBackupActionModel struct {
	AppID      types.String `tfsdk:"app_id"`
	Name       types.String `tfsdk:"name"`
	NamePrefix types.String `tfsdk:"name_prefix"`
	BucketID   types.String `tfsdk:"bucket_id"`
	Timeout    types.String `tfsdk:"timeout"`
}

func (a *appBackupAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_app_backup"
}

func (a *appBackupAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	name, prefix := runNameAttributes("backup")
	resp.Schema = schema.Schema{
		MarkdownDescription: "Takes a backup of an app now (`POST /k8s/v1/apps/{app_id}/appBackups`) and waits until it is " +
			"`completed`, reporting its state and percentage done as it goes; a backup that fails fails the action with " +
			"the service's reasons. Run it with `terraform apply -invoke=action.astra_app_backup.<name>`, or from a " +
			"resource's `lifecycle { action_trigger { ... } }` (for example right before an upgrade of the app's " +
			"workloads). Terraform 1.14 or later; OpenTofu has no actions. The backup is not managed by Terraform afterwards.\n\n" +
			"The action reports only a backup its own request took: when the answer to that request is lost, it looks for the " +
			"backup by name (for up to the provider's `request_timeout`, as the service may still be acting on it) and accepts " +
			"it only if it was created after the request was sent; otherwise it fails saying that no new backup was taken.",
		Attributes: map[string]schema.Attribute{
			"app_id":      appIDAttribute("to back up"),
			"name":        name,
			"name_prefix": prefix,
			"bucket_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Bucket to write the backup to (an `astra_bucket`'s `id`). Default: the managed " +
					"cluster's default bucket, else the cloud's, else one Astra Control chooses.",
				Validators: []validator.String{validate.UUID()},
			},
			"timeout": actionTimeoutAttribute("the backup", appBackupTimeout),
		},
	}
}

func (a *appBackupAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m appBackupActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := a.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	appID := m.AppID.ValueString()
	name := runName("backup", m.Name, m.NamePrefix, time.Now())
	calls := appBackupCalls(client, appID)
	calls.post = func(ctx context.Context) (*astra.AppBackup, error) {
		return client.CreateAppBackup(ctx, appID, astra.AppBackupCreate{Name: name, BucketID: m.BucketID.ValueString()})
	}
	takeAppRun(ctx, &a.actionHolder, client, calls, appID, name, isSet(m.Name), actionTimeout(m.Timeout, appBackupTimeout),
		describeBackup, &progress{send: resp.SendProgress}, &resp.Diagnostics)
}

// describeBackup is a backup's progress line: its state and, when the service says, the
// percentage done.
func describeBackup(b *astra.AppBackup) string {
	line := fmt.Sprintf("backup %q (%s): %s", b.Name, b.ID, b.State)
	if b.PercentDone != nil {
		line += ", " + formatPercentDone(*b.PercentDone) + " done"
	}
	return line
}

func formatPercentDone(p float64) string {
	if p == float64(int64(p)) {
		return fmt.Sprintf("%d%%", int64(p))
	}
	return fmt.Sprintf("%.1f%%", p)
}
