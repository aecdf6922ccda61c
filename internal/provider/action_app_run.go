package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// What astra_app_snapshot and astra_app_backup share: each takes one run of the app (a
// snapshot or a backup) named by the configuration or generated, and waits for it. An
// action reports only a run this invocation took: after a lost answer it accepts the run
// of that name only when it was created after the request was sent (lostCreate, as the
// resources do), and otherwise says that no new one was taken.

// onDemandTimeLayout is the time in a generated name, in UTC, to the second.
const onDemandTimeLayout = "20060102-150405"

// onDemandName is the name an action gives a snapshot or a backup when its configuration
// names none: the prefix and the time, in UTC, so that a lost answer can be found by name.
func onDemandName(prefix string, now time.Time) string {
	return prefix + now.UTC().Format(onDemandTimeLayout)
}

// runNameAttributes are the `name` and `name_prefix` of the snapshot or backup action.
func runNameAttributes(kind string) (name, prefix schema.StringAttribute) {
	name = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("Name of the %[1]s, unique among the app's %[1]ss: an action with a fixed name "+
			"takes its %[1]s once (invoked again, it fails naming the existing one). Default: a generated name, `name_prefix` "+
			"followed by the time in UTC (`%[1]s-20260102-030405`), new at each invocation.", kind),
		Validators: []validator.String{validate.ResourceName(63)},
	}
	prefix = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: fmt.Sprintf("Start of the generated name, followed by the time in UTC: `before-upgrade-` "+
			"names the %[1]s `before-upgrade-20260102-030405`, so that every invocation takes a %[1]s of its own. "+
			"Default: `%[1]s-`. Not with `name`.", kind),
		Validators: []validator.String{
			validate.ResourceName(63 - len(onDemandTimeLayout)),
			stringvalidator.ConflictsWith(path.MatchRoot("name")),
		},
	}
	return name, prefix
}

// runName is the name to give the run: name, else name_prefix (or kind-) and the time.
func runName(kind string, name, prefix types.String, now time.Time) string {
	if isSet(name) {
		return name.ValueString()
	}
	if isSet(prefix) {
		return onDemandName(prefix.ValueString(), now)
	}
	return onDemandName(kind+"-", now)
}

// takeAppRun takes the app's run named name and waits for it within timeout, reporting its
// progress (describe). named: the configuration set name (a refusal of the name then says
// how to take a new run each time).
func takeAppRun[T any](ctx context.Context, h *actionHolder, client *astra.Client, calls appRunCalls[T], appID, name string,
	named bool, timeout time.Duration, describe func(*T) string, p *progress, diags *diag.Diagnostics) {
	run := startAppRun(ctx, h, client, calls, appID, name, named, diags)
	if run == nil {
		return
	}
	p.report(describe(run))
	id := calls.id(run)
	onward := fmt.Sprintf("Watch %s %q (%s) of app %s with the astra_app_%ss data source.", calls.kind, name, id, appID, calls.kind)
	fetch := func(ctx context.Context) (*T, error) { return calls.get(ctx, id) }
	if _, ok := waitForAction(ctx, h.waitSchedule(), timeout, p, fetch, calls.completed, describe, diags,
		capitalize(calls.kind)+" not completed", onward); ok {
		p.report(fmt.Sprintf("%s %q (%s) of app %s completed", calls.kind, name, id, appID))
	}
}

// startAppRun sends the run's POST (calls.post) and returns the run this invocation
// started, or nil with an error.
func startAppRun[T any](ctx context.Context, h *actionHolder, client *astra.Client, calls appRunCalls[T], appID, name string,
	named bool, diags *diag.Diagnostics) *T {
	sent := time.Now()
	run, err := calls.post(ctx)
	switch {
	case err == nil:
		h.claims().claim(calls.stamp(run))
		return run
	case astra.IsConflict(err) && astra.ProblemNumber(err) == calls.existsProblem:
		addRunNameTaken(ctx, calls, appID, name, named, err, diags)
	case astra.IsUnknownOutcome(err):
		return adoptLostRun(ctx, calls, lostCreate[T]{sent: sent, claims: h.claims(), stamp: calls.stamp,
			settle: client.RequestTimeout(), find: func(ctx context.Context) (*T, error) { return calls.find(ctx, name) }},
			appID, name, err, diags)
	default:
		addAPIError(diags, "Cannot take the "+calls.kind, err, appRunAPIFields)
	}
	return nil
}

// adoptLostRun resolves a POST whose answer was lost: the run of that name, when this
// request can have created it (created after it was sent, held by no one else in this
// run); otherwise an error saying that no new run was taken.
func adoptLostRun[T any](ctx context.Context, calls appRunCalls[T], lost lostCreate[T], appID, name string, err error,
	diags *diag.Diagnostics) *T {
	lostWhat := fmt.Sprintf("The answer to the request that takes %s %q of app %s was lost (%v)", calls.kind, name, appID, err)
	found, findErr := lost.search(ctx)
	if findErr != nil {
		diags.AddError(capitalize(calls.kind)+" outcome unknown", fmt.Sprintf("%s, and looking for the %s afterwards failed: %v. "+
			"Whether a new %s was taken is unknown: check the app's %ss (the astra_app_%ss data source) before invoking the "+
			"action again.", lostWhat, calls.kind, findErr, calls.kind, calls.kind, calls.kind))
		return nil
	}
	if found == nil {
		diags.AddError("No new "+calls.kind+" taken", fmt.Sprintf("%s, and no %s of that name appeared in the %s that "+
			"followed: Astra Control did not act on it, and no new %s was taken. Invoke the action again.",
			lostWhat, calls.kind, lost.settle, calls.kind))
		return nil
	}
	if reason := lost.notAdoptable(found); reason != "" {
		diags.AddError("No new "+calls.kind+" taken", fmt.Sprintf("%s. The app has a %s of that name, but not a new one: %s. "+
			"No new %s was taken. Invoke the action again with another name, or leave name unset so that each %s gets "+
			"a name of its own.", lostWhat, calls.kind, reason, calls.kind, calls.kind))
		return nil
	}
	lost.claims.claim(lost.stamp(found))
	return found
}

// addRunNameTaken explains a run refused because the app has one of that name: its ID and
// state, and how to take a new one each time.
func addRunNameTaken[T any](ctx context.Context, calls appRunCalls[T], appID, name string, named bool, err error, diags *diag.Diagnostics) {
	existing := fmt.Sprintf("App %s already has a %s named %q", appID, calls.kind, name)
	if found, findErr := calls.find(ctx, name); findErr == nil && found != nil {
		existing += fmt.Sprintf(": ID %s, state %s", calls.id(found), calls.state(found))
		if state := calls.state(found); !strings.EqualFold(state, "completed") && !isFailed(state) {
			existing += fmt.Sprintf(" (perhaps the one an earlier, interrupted invocation started: Astra Control goes on "+
				"with it; the astra_app_%ss data source shows it)", calls.kind)
		}
	}
	advice := fmt.Sprintf("To take a new %[1]s at each invocation, leave name unset (each %[1]s then gets a name of its "+
		"own, the time in UTC after name_prefix, default %[1]s-), or choose another name. To restore from the existing "+
		"one, give its ID to astra_app_restore's %[1]s_id.", calls.kind)
	if !named {
		advice = "The generated name holds the time to the second: invoke the action again."
	}
	summary := capitalize(calls.kind) + " name already used"
	detail := fmt.Sprintf("%s. Astra Control refuses a second %s of the same name, so no new %s was taken. %s\n\n%s",
		existing, calls.kind, calls.kind, advice, err.Error())
	if named {
		diags.AddAttributeError(path.Root("name"), summary, detail)
		return
	}
	diags.AddError(summary, detail)
}
