package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// checkClone checks a planned clone against its source app, when that is known: the
// mapping names the source's namespaces, namespace_scoped_resources is the source's scope
// renamed by it, and no destination namespace exists on the target cluster yet (Astra
// Control creates them). A value not known yet (a destination such as
// "staging-${random_id.x.hex}") is not checked: Terraform plans the resource again during
// the apply, with it known, and this check runs then.
func checkClone(ctx context.Context, client *astra.Client, plan appValues, sourceValue types.Object, src appSource,
	namespaces []astra.Namespace, diags *diag.Diagnostics) {
	if src.AppID == "" {
		return
	}
	source, err := client.GetApp(ctx, src.AppID)
	if astra.IsNotFound(err) {
		diags.AddAttributeError(path.Root("source").AtName("app_id"), "Unknown source app",
			fmt.Sprintf("source.app_id %q names no app of Astra Control: set it to the id of the app to clone (astra_app.<name>.id).", src.AppID))
		return
	}
	if err != nil {
		return // the service checks at apply
	}
	mapping, complete := knownMapping(sourceValue)
	have := map[string]bool{}
	for _, r := range source.NamespaceScopedResources {
		have[r.Namespace] = true
	}
	for _, m := range mapping {
		if m.Source != "" && !have[m.Source] {
			diags.AddAttributeError(path.Root("source").AtName("namespace_mapping"), "Not a namespace of the source app",
				fmt.Sprintf("namespace_mapping renames %q, which app %q (%s) does not span; its namespaces are: %s.",
					m.Source, source.Name, source.ID, strings.Join(scopeNames(source.NamespaceScopedResources), ", ")))
		}
	}
	if complete && len(mapping) == 0 && len(source.NamespaceScopedResources) > 1 {
		diags.AddAttributeError(path.Root("source").AtName("namespace_mapping"), "Missing namespace mapping",
			fmt.Sprintf("Without namespace_mapping Astra Control names a clone's namespace after the clone, which covers one "+
				"namespace; app %q (%s) spans %s: map each of them to the clone's namespace in source.namespace_mapping.",
				source.Name, source.ID, strings.Join(slices.Sorted(slices.Values(scopeNames(source.NamespaceScopedResources))), ", ")))
	}
	if diags.HasError() {
		return
	}
	// Without a mapping the clone's namespace is named after the clone: unknown until its name is.
	if !complete || !fullyKnown(ctx, plan.NamespaceScopedResources) || (len(mapping) == 0 && plan.Name.IsUnknown()) {
		// Only the destinations named already can be checked.
		var named []astra.NamespaceScope
		for _, m := range mapping {
			if m.Destination != "" {
				named = append(named, astra.NamespaceScope{Namespace: m.Destination})
			}
		}
		checkCloneDestinations(ctx, client, plan, src, source, named, namespaces, diags)
		return
	}
	want := cloneNamespaces(source.NamespaceScopedResources, src.NamespaceMapping, plan.Name.ValueString())
	if !appNamespacesValue(want).Equal(plan.NamespaceScopedResources) {
		diags.AddAttributeError(path.Root("namespace_scoped_resources"), "Not the clone's namespaces",
			fmt.Sprintf("A clone spans the source app's namespaces as source.namespace_mapping renames them, with the source's "+
				"label selectors. Cloning app %q (%s) gives: %s. Set namespace_scoped_resources to that (or change the mapping).",
				source.Name, source.ID, describeScope(want)))
		return
	}
	checkCloneDestinations(ctx, client, plan, src, source, want, namespaces, diags)
}

// checkCloneDestinations adds an error on each destination namespace that exists on the
// target cluster already. One that holds this resource's own clone (ownClone) gets the way
// to keep that clone instead.
func checkCloneDestinations(ctx context.Context, client *astra.Client, plan appValues, src appSource, source *astra.App,
	want []astra.NamespaceScope, namespaces []astra.Namespace, diags *diag.Diagnostics) {
	exists := map[string]bool{}
	for _, n := range namespaces {
		if !strings.EqualFold(n.NamespaceState, "removed") {
			exists[n.Name] = true
		}
	}
	var own *astra.App
	looked := false
	for _, r := range want {
		if !exists[r.Namespace] {
			continue
		}
		if !looked {
			own, looked = ownClone(ctx, client, plan, src), true
		}
		if own != nil && slices.Contains(appNamespaceNames(own), r.Namespace) {
			addOwnCloneError(diags, r.Namespace, plan, src, own)
			continue
		}
		detail := fmt.Sprintf("Namespace %q already exists on managed cluster %s, and a clone creates its namespaces. Map it to a "+
			"new name in source.namespace_mapping.", r.Namespace, plan.ClusterID.ValueString())
		if source.ClusterID == plan.ClusterID.ValueString() {
			detail += " A clone within the source app's cluster must rename every namespace."
		}
		diags.AddAttributeError(path.Root("source").AtName("namespace_mapping"), "Destination namespace exists", detail)
	}
}

// ownClone is the app this plan's clone would be, when Astra Control has it already: of
// this name on the target cluster, cloned from the same source app. A create wait that ended
// early (timeouts.create, an interrupt) leaves such a clone in state, tainted, and Terraform
// then plans it as a new create without showing the provider the tainted object; what a
// clone's namespaces hold is how the check tells it from another app's. nil when none.
func ownClone(ctx context.Context, client *astra.Client, plan appValues, src appSource) *astra.App {
	if !isSet(plan.Name) || !isSet(plan.ClusterID) {
		return nil
	}
	app, err := findApp(ctx, client, plan.ClusterID.ValueString(), plan.Name.ValueString())
	if err != nil || app == nil || app.SourceAppID != src.AppID {
		return nil
	}
	return app
}

// appNamespaceNames are the namespaces an app spans.
func appNamespaceNames(app *astra.App) []string {
	return append(scopeNames(app.NamespaceScopedResources), app.Namespaces...)
}

// cloneWaitAftermath is what becomes of a clone whose create wait did not end ready: tainted,
// and, unless it failed, kept by untainting it (the next plan refuses to replace it,
// addOwnCloneError).
const cloneWaitAftermath = "The clone is recorded in state as tainted (with its state_details). One still provisioning " +
	"is not lost: Astra Control goes on cloning, and the next plan refuses to replace it (its namespaces exist now); keep " +
	"it with `terraform untaint <address>` (`tofu untaint`), and raise timeouts.create next time. A failed one is replaced " +
	"by the next apply once its namespaces are deleted from the cluster."

// addOwnCloneError refuses the plan of a clone whose namespace holds the clone itself
// (ownClone): applying it would unmanage that clone (Terraform replaces a tainted object)
// and clone again into namespaces that now exist, which Astra Control refuses, leaving them
// unmanaged. The error says how to keep the clone.
func addOwnCloneError(diags *diag.Diagnostics, namespace string, plan appValues, src appSource, own *astra.App) {
	if strings.EqualFold(own.State, "failed") {
		diags.AddAttributeError(path.Root("source").AtName("namespace_mapping"), "Destination namespace holds this failed clone",
			fmt.Sprintf("Namespace %q on managed cluster %s belongs to app %q (%s), a clone of the same source app (%s) with "+
				"this resource's name, which failed: most likely this resource's own clone. Cloning again needs its namespaces "+
				"gone: delete them from the cluster (kubectl delete namespace), then apply again to replace the clone.",
				namespace, plan.ClusterID.ValueString(), own.Name, own.ID, src.AppID))
		return
	}
	diags.AddAttributeError(path.Root("source").AtName("namespace_mapping"), "Destination namespace holds this clone",
		fmt.Sprintf("Namespace %q on managed cluster %s belongs to app %q (%s, state %s), a clone of the same source app (%s) "+
			"with this resource's name: most likely this resource's own clone, recorded in state as tainted when its create "+
			"wait ended early (timeouts.create or an interrupt) while Astra Control went on cloning. Replacing it would unmanage "+
			"it and clone again into namespaces that now exist, which Astra Control refuses, leaving them unmanaged.\n\n"+
			"Keep the clone instead: run `terraform untaint <address>` (`tofu untaint` with OpenTofu) with this resource's "+
			"address, shown above; the next plan reads it again. If state does not hold it (`terraform state list`), import it: "+
			"`terraform import <address> %s`. Do not rename the namespace in source.namespace_mapping: that leaves this clone "+
			"unmanaged beside a new one.",
			namespace, plan.ClusterID.ValueString(), own.Name, own.ID, own.State, src.AppID, own.ID))
}

// knownMapping is source.namespace_mapping with an unknown source or destination as "",
// and whether every value of it is known.
func knownMapping(source types.Object) ([]astra.Mapping, bool) {
	s, ok := source.Attributes()["namespace_mapping"].(types.Set)
	if !ok || s.IsUnknown() {
		return nil, false
	}
	complete := true
	var out []astra.Mapping
	for _, m := range setObjects(s) {
		if m.IsUnknown() {
			complete = false
			continue
		}
		from, _ := m.Attributes()["source"].(types.String)
		to, _ := m.Attributes()["destination"].(types.String)
		complete = complete && !from.IsUnknown() && !to.IsUnknown()
		out = append(out, astra.Mapping{Source: from.ValueString(), Destination: to.ValueString()})
	}
	return out, complete
}

// fullyKnown reports a set whose every value is known.
func fullyKnown(ctx context.Context, s types.Set) bool {
	v, err := s.ToTerraformValue(ctx)
	return err == nil && v.IsFullyKnown()
}
