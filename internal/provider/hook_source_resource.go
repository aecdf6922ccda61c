package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

var (
	_ resource.ResourceWithConfigure   = (*hookSourceResource)(nil)
	_ resource.ResourceWithImportState = (*hookSourceResource)(nil)
	_ knownanswers.AnswerReader        = (*hookSourceResource)(nil)
	_ knownanswers.PlanChecker         = (*hookSourceResource)(nil)
)

type hookSourceResource struct{ clientHolder }

// newHookSourceResource is astra_hook_source.
func newHookSourceResource() resource.Resource { return &hookSourceResource{} }

// problemHookSourceInUse is the 403 of deleting a hook source an execution hook runs.
const problemHookSourceInUse = 72

func (r *hookSourceResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_hook_source"
}

func (r *hookSourceResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: hookSourceSchemaVersion,
		MarkdownDescription: "A script Astra Control runs in an app's containers (`POST /core/v1/hookSources`, a " +
			"\"script\" in the web UI), before or after a snapshot, backup, restore or failover, as an " +
			"`astra_execution_hook` says. Give the script as plain text (`source`, which the provider base64-encodes) or " +
			"as `source_base64`. A change of the script plans as a change of `source_sha256`; every argument is updated in " +
			"place with one request. The size, binary content and carriage returns are checked at plan time. Destroy is " +
			"refused while an execution hook runs the script: the error names the hooks. Imports by ID.",
		Attributes: hookSourceAttributes(),
	}
}

func (r *hookSourceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, client, ok := fromPlan[hookSourceModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	script, err := configuredScript(plan.Source, plan.SourceBase64)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("source_base64"), "Invalid source_base64", err.Error())
		return
	}
	body := astra.HookSourceCreate{Name: plan.Name.ValueString(), Script: script, Description: plan.Description.ValueString()}
	sent := time.Now()
	h, err := client.CreateHookSource(ctx, body)
	if nameRefused(err) {
		if found, _ := client.FindHookSource(ctx, body.Name); found != nil {
			addExists(&resp.Diagnostics, "Hook source already exists", "astra_hook_source",
				&existing{what: fmt.Sprintf("the hook source %q", found.Name), id: found.ID}, "", err)
			return
		}
	}
	h = createdOrAdopted(ctx, &resp.Diagnostics, "hook source "+body.Name, "Cannot create the hook source", hookSourceAPIFields, h, err,
		lostCreate[astra.HookSource]{sent: sent, claims: r.claims(), stamp: hookSourceStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.HookSource, error) { return client.FindHookSource(ctx, body.Name) }})
	if h == nil {
		return
	}
	r.record(ctx, plan, h, &resp.State, resp.Private, &resp.Diagnostics)
}

func (r *hookSourceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[hookSourceModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	h := readOrForget(ctx, resp, "astra_hook_source", id, "the hook source",
		func() (*astra.HookSource, error) { return client.GetHookSource(ctx, id) }, nil)
	if h == nil {
		return
	}
	r.record(ctx, state, h, &resp.State, resp.Private, &resp.Diagnostics)
}

// Update is one PUT of the hook source as just read with what the plan changes
// (astra.UpdateConditionally), then a read.
func (r *hookSourceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, client, ok := fromPlan[hookSourceModel](ctx, &r.clientHolder, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	inPlace(ctx, req, resp, hookSourcePutArgs, func(change hookSourceModel) bool {
		id := plan.ID.ValueString()
		h := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "hook source", id, hookSourceAPIFields,
			func(ctx context.Context) (*astra.HookSource, error) { return client.GetHookSource(ctx, id) },
			func(h *astra.HookSource) { applyHookSourcePlan(h, change) },
			client.UpdateHookSource)
		if h == nil {
			return false
		}
		r.record(ctx, plan, h, &resp.State, resp.Private, &resp.Diagnostics)
		return true
	})
}

// Delete removes the hook source. Astra Control refuses while an execution hook runs it
// (403, problem 72): the error names those hooks, which go first.
func (r *hookSourceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[hookSourceModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	id := state.ID.ValueString()
	err := client.DeleteHookSource(ctx, id)
	switch {
	case err == nil || astra.IsNotFound(err):
	case astra.IsForbidden(err) && astra.ProblemNumber(err) == problemHookSourceInUse:
		resp.Diagnostics.AddError("Hook source in use", fmt.Sprintf("Astra Control refuses to delete hook source %s (%s) "+
			"while execution hooks run it: %s. Delete those hooks first (or point them at another hook source), then "+
			"apply again. When this apply also moves Terraform's own hooks to another hook source, Terraform deletes the "+
			"old source before it updates them, and is refused every time: set `lifecycle { create_before_destroy = true }` "+
			"on the astra_hook_source (Terraform then updates its dependents first), or apply with -target on the hooks "+
			"first.\n\n%s", state.Name.ValueString(), id, hooksRunning(context.WithoutCancel(ctx), client, id), err.Error()))
	default:
		addAPIError(&resp.Diagnostics, "Cannot delete the hook source", err, nil)
	}
}

// hooksRunning names the execution hooks that run a hook source, for the refused delete.
func hooksRunning(ctx context.Context, client *astra.Client, sourceID string) string {
	hooks, err := client.ListExecutionHooks(ctx, astra.ListOptions{})
	if err != nil {
		return "listing the execution hooks failed (" + err.Error() + ")"
	}
	var names []string
	for _, h := range hooks {
		if h.HookSourceID == sourceID {
			names = append(names, h.Name+" ("+h.ID+")")
		}
	}
	if len(names) == 0 {
		return "none is listed now; apply again"
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// CheckPlan (its ModifyPlan through the identified wrapper, see knownanswers.PlanChecker):
// a new hook source needs its script. An imported one may leave both arguments out, as a
// configuration generated at import must (the script is sensitive): it keeps the script
// Astra Control holds.
func (r *hookSourceResource) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() {
		return diags
	}
	var plain, encoded types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("source"), &plain)...)
	diags.Append(req.Config.GetAttribute(ctx, path.Root("source_base64"), &encoded)...)
	if !diags.HasError() && plain.IsNull() && encoded.IsNull() {
		diags.AddAttributeError(path.Root("source"), "Missing script",
			"A new astra_hook_source needs its script: set `source` (usually file(\"${path.module}/script.sh\")) or "+
				"`source_base64`. Only a hook source imported from Astra Control may leave both out: it keeps the script "+
				"Astra Control holds.")
	}
	return diags
}

func (r *hookSourceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// record writes the service's answer to state; where the script goes comes from prior.
func (r *hookSourceResource) record(ctx context.Context, prior hookSourceModel, h *astra.HookSource, state *tfsdk.State,
	private privateKeys, diags *diag.Diagnostics) {
	diags.Append(setState(ctx, state, hookSourceFrom(h, prior))...)
	knownanswers.RecordAnswer(ctx, private, h, *state, diags)
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *hookSourceResource) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return readWith(&r.clientHolder, func(c *astra.Client) (*astra.HookSource, error) { return c.GetHookSource(ctx, ids["id"]) }, nil)
}

// nameRefused reports a create refused for its name (hook sources and hooks have names
// unique in the account: a 400 or 409 naming the field name), so that the error can name
// the object that holds it and the import that adopts it.
func nameRefused(err error) bool {
	var apiErr *astra.APIError
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != http.StatusBadRequest && apiErr.StatusCode != http.StatusConflict) {
		return false
	}
	for _, f := range apiErr.InvalidFields {
		if f.Name == "name" {
			return true
		}
	}
	return false
}

func hookSourceStamp(h *astra.HookSource) objectStamp {
	return objectStamp{Kind: "hook source", ID: h.ID, Created: h.Metadata.CreationTimestamp}
}
