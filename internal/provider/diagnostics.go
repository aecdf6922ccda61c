package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// problemAdvice is what to do about a problem whose fix the service does not say, and the
// argument it is about.
var problemAdvice = map[int]struct{ attribute, fix string }{
	problemDefaultBucketNeedsNeptune: {"default_bucket_id", neptuneFix},
}

// addAPIError reports a failed API call. The server's title, detail and correlation ID go
// into the message; each invalid field the server names is attached to the attribute it
// maps to (fields maps API field names such as "credentialID" to attribute names), so the
// CLI points at the offending line.
func addAPIError(diags *diag.Diagnostics, summary string, err error, fields map[string]string) {
	var apiErr *astra.APIError
	var version *astra.VersionNotSpokenError
	switch {
	case errors.As(err, &version):
		diags.AddError(summary, versionNotSpokenDetail(version))
		return
	case errors.As(err, &apiErr) && (apiErr.StatusCode == 401 || apiErr.StatusCode == 403):
		diags.AddError(summary, accessDetail(apiErr))
		return
	}
	if !errors.As(err, &apiErr) {
		diags.AddError(summary, err.Error())
		return
	}
	if advice, ok := problemAdvice[apiErr.Problem]; ok {
		diags.AddAttributeError(path.Root(advice.attribute), summary, advice.fix+"\n\n"+apiErr.Error())
		return
	}
	attached := false
	for _, f := range append(append([]astra.InvalidField{}, apiErr.InvalidFields...), apiErr.InvalidParams...) {
		if attr, ok := fields[f.Name]; ok {
			diags.AddAttributeError(path.Root(attr), summary, fmt.Sprintf("Astra Control refused %s: %s\n\n%s", attr, f.Reason, apiErr.Error()))
			attached = true
		}
	}
	if !attached {
		diags.AddError(summary, apiErr.Error())
	}
}

// addUpdateError explains a failed astra.UpdateConditionally of what ("cluster", ...): its
// read, an update that kept losing to another writer, or the PUT the service refused.
func addUpdateError(diags *diag.Diagnostics, what string, err error, fields map[string]string) {
	var changed *astra.ChangedDuringApplyError
	var read *astra.ReadBeforeUpdateError
	switch {
	case errors.As(err, &changed):
		diags.AddError("The "+what+" changed during the apply", err.Error())
	case errors.As(err, &read):
		addAPIError(diags, "Cannot read the "+what+" before updating it", read.Err, nil)
	default:
		addAPIError(diags, "Cannot update the "+what, err, fields)
	}
}

// addUnknownOutcome explains a create whose answer was lost and whose object could not be
// adopted afterwards (none found, the search failed, or what was found cannot be the
// request's): nothing is in state, and the user should check before applying again.
func addUnknownOutcome(diags *diag.Diagnostics, what string, err error, afterwards string) {
	diags.AddError("Outcome of creating "+what+" is unknown",
		"The create request was sent but no answer said whether Astra Control acted on it ("+err.Error()+"), "+
			"and "+afterwards+". Nothing was recorded in state. Before applying again, check whether Astra Control "+
			"holds "+what+" created by this request; if it does, import it with `terraform import`.")
}

// createdOrAdopted settles a create. A lost answer (astra.IsUnknownOutcome) is resolved
// with lost.find: the object it finds is adopted when the lost request can have created it
// (see lostCreate.notAdoptable), so applying again never makes a duplicate nor takes over
// an object that existed before; otherwise the outcome is reported as unknown. Any other
// error is reported under summary, its invalid fields mapped by fields. What it returns is
// claimed for this run; it returns nil exactly when it added an error.
func createdOrAdopted[T any](ctx context.Context, diags *diag.Diagnostics, what, summary string, fields map[string]string,
	obj *T, err error, lost lostCreate[T]) *T {
	if astra.IsUnknownOutcome(err) {
		// An interrupt (the CLI's Ctrl-C cancels every request) may cut the POST after it
		// reached the server, or come while the search runs: the search always runs under a
		// context of its own, which no interrupt cancels, bounded by the settle window and one
		// more request, so an object the POST made is recorded (tainted) rather than orphaned.
		found, findErr := lost.search(ctx)
		var stamp objectStamp
		if found != nil {
			stamp = lost.stamp(found)
		}
		if !adoptFound(ctx, diags, what, err, findErr, found != nil, stamp, lost.claims, lost.sent, lost.settle) {
			return nil
		}
		return found
	}
	if err != nil {
		addAPIError(diags, summary, err, fields)
		return nil
	}
	lost.claims.claim(lost.stamp(obj))
	return obj
}

// adoptFound is createdOrAdopted's work after a lost answer, once for every type (see
// searchSettling): whether the object the search found (stamp; found false when there was
// none) is adopted. It claims the object when it is; when not, it adds why as an error.
func adoptFound(ctx context.Context, diags *diag.Diagnostics, what string, err, findErr error, found bool, stamp objectStamp,
	claims *claimSet, sent time.Time, settle time.Duration) bool {
	switch {
	case findErr != nil:
		addUnknownOutcome(diags, what, err, "looking for it afterwards failed: "+findErr.Error())
		return false
	case !found:
		addUnknownOutcome(diags, what, err, fmt.Sprintf("no matching object was found afterwards (looked for %s)", settle))
		return false
	}
	if reason := notAdoptable(claims, sent, stamp); reason != "" {
		addUnknownOutcome(diags, what, err, reason+"; it was not adopted (Terraform never takes over an object it did not create)")
		return false
	}
	tflog.Info(ctx, "the answer to creating "+what+" was lost; adopting the matching object found afterwards")
	claims.claim(stamp)
	return true
}

// joinReasons formats the server's reasons for a state, for error details that end the
// sentence themselves: a reason's own final full stop is left out (no "..").
func joinReasons(reasons []string) string {
	if len(reasons) == 0 {
		return "the service gave no reason"
	}
	trimmed := make([]string, len(reasons))
	for i, r := range reasons {
		trimmed[i] = strings.TrimRight(strings.TrimSpace(r), ".")
	}
	return strings.Join(trimmed, "; ")
}

// addWaitError reports a wait that ended before the object was ready: a terminal state
// with the server's reasons, the timeout (naming the last state seen), a cancellation, or
// a failed read. aftermath tells the user what state holds now and what happens next.
func addWaitError(diags *diag.Diagnostics, summary string, err error, timeout time.Duration, aftermath string) {
	var terminal *astra.TerminalStateError
	var timedOut *astra.WaitTimeoutError
	switch {
	case errors.As(err, &terminal):
		diags.AddError(summary, fmt.Sprintf("Astra Control reports %s as %s: %s.\n\n%s",
			terminal.What, terminal.State, joinReasons(terminal.Reasons), aftermath))
	case errors.As(err, &timedOut) && errors.Is(err, context.DeadlineExceeded):
		diags.AddError(summary, fmt.Sprintf("Timed out after %s waiting for %s (%s). Raise the timeout in the resource's "+
			"timeouts attribute if it needs longer.\n\n%s", timeout, timedOut.What, lastSeen(timedOut.LastState), aftermath))
	case errors.As(err, &timedOut):
		diags.AddError(summary, fmt.Sprintf("The wait for %s was cancelled (%s).\n\n%s",
			timedOut.What, lastSeen(timedOut.LastState), aftermath))
	default:
		diags.AddError(summary, fmt.Sprintf("Reading the object while waiting failed: %v\n\n%s", err, aftermath))
	}
}

func lastSeen(state string) string {
	if state == "" {
		return "no state seen yet"
	}
	return "last seen: " + state
}

// warnRemovedOutside is Read's warning when the object is gone: it leaves state, and the
// next plan proposes to create it again.
func warnRemovedOutside(diags *diag.Diagnostics, resourceType, id string) {
	diags.AddWarning("Object deleted outside Terraform",
		fmt.Sprintf("The %s %s no longer exists in Astra Control, so it was removed from state; the next apply "+
			"creates it again if the configuration still declares it.", resourceType, id))
}

// readOrForget fetches the object a resource's Read refreshes. An object gone from Astra
// Control (a 404, or forgotten reporting true) is removed from state with a warning, so the
// next plan creates it again; any other error is reported. Both give nil.
func readOrForget[T any](ctx context.Context, resp *resource.ReadResponse, resourceType, id, what string,
	get func() (*T, error), forgotten func(*T) bool) *T {
	obj, err := get()
	if astra.IsNotFound(err) || (err == nil && forgotten != nil && forgotten(obj)) {
		warnRemovedOutside(&resp.Diagnostics, resourceType, id)
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot read "+what, err, nil)
		return nil
	}
	return obj
}

// isUnreachable returns "removed" or "failed" for a cluster state the cluster leaves only
// after a change (of its credential, or on the cluster itself), "" for any other state.
func isUnreachable(state string) string {
	for _, s := range []string{"removed", "failed"} {
		if strings.EqualFold(strings.TrimSpace(state), s) {
			return s
		}
	}
	return ""
}

// warnUnreachable is a refresh's warning for a cluster the service reports removed or
// failed: the plan shows no change for it, so this is where the user learns why and what to do.
func warnUnreachable(diags *diag.Diagnostics, resourceType, name, id string, s astra.ClusterStatus) {
	state := isUnreachable(s.State)
	if state == "" {
		return
	}
	fix := "Check that the credential's kubeconfig reaches this cluster's API server (for example " +
		"`kubectl --kubeconfig FILE get --raw /version`); rotate the astra_kubeconfig_credential to a working kubeconfig " +
		"for this cluster, or set the cluster's credential_id to one, and apply: Astra Control then collects it again."
	if state == "failed" {
		fix = "A failed cluster does not recover by waiting: fix the cause Astra Control names, then replace the cluster " +
			"(`terraform apply -replace=" + resourceType + ".NAME`) or remove it."
	}
	diags.AddWarning("Cluster is "+state+" in Astra Control",
		fmt.Sprintf("Astra Control reports the cluster %q (%s) as %s: %s.\n\n%s", name, id, state, joinReasons(s.StateUnready), fix))
}

// versionNotSpokenDetail names the api_version the service refused and the versions it speaks.
func versionNotSpokenDetail(e *astra.VersionNotSpokenError) string {
	if e.Served == "" {
		return fmt.Sprintf("Astra Control refused cluster API version %s, which the provider's api_version (or ASTRA_API_VERSION) "+
			"sets, and did not say which it speaks. Set api_version in the provider block (or ASTRA_API_VERSION) to the "+
			"version of your Astra Control release: 1.3 for 22.11, 1.4 for 23.05, 1.5 for 23.07 (Astra Control Service), "+
			"1.6 for 23.10, 1.7 for 24.02.\n\n%s", e.Sent, e.Err)
	}
	spoken := e.Spoken()
	detail := fmt.Sprintf("Astra Control does not speak cluster API version %s, which the provider's api_version (or "+
		"ASTRA_API_VERSION) sets: it speaks %s to %s (its clusters collection is version %s). Set api_version = %q in the "+
		"provider block, or ASTRA_API_VERSION=%s, or lower if you need to.", e.Sent, spoken[0], e.Served, e.Served, e.Served, e.Served)
	if beyond := needsBeyond(e.Served); len(beyond) > 0 {
		detail += " With " + e.Served + ", leave out what needs a later version: " + strings.Join(beyond, ", ") +
			". To keep them, use an Astra Control that speaks " + e.Sent + " instead. " + reachVersion(e.Sent)
	}
	return detail + "\n\n" + e.Err.Error()
}

// accessDetail explains a 401 or 403 in terms of the provider's arguments: the token, and
// the account it must belong to. The token itself is never shown.
func accessDetail(e *astra.APIError) string {
	if e.StatusCode == 401 {
		return "Astra Control did not accept the API token (401): it is missing, mistyped, expired or revoked. Check " +
			"api_token in the provider block (or ASTRA_API_TOKEN): create a new token in Astra Control (Account > " +
			"API access) if needed, and check that account_id (or ASTRA_ACCOUNT_ID) is the account the token " +
			"belongs to.\n\n" + e.Error()
	}
	if e.Problem == astra.ProblemForbidden || e.Problem == 0 {
		if role := astra.RoleNeeded(e.Method, e.Path); role != astra.RoleViewer {
			return lacksRole(e, role)
		}
	}
	return "Astra Control accepted the API token but refused this request (403): the token's user may not do it in this " +
		"account, or the token belongs to another account. Check that account_id (or ASTRA_ACCOUNT_ID) is the account " +
		"the token of api_token (or ASTRA_API_TOKEN) was created in, and that its user's role (Owner, Admin or Member) " +
		"may change this object.\n\n" + e.Error()
}
