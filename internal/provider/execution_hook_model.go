package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// executionHookModel is the astra_execution_hook resource.
type executionHookModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	AppID              types.String `tfsdk:"app_id"`
	HookSourceID       types.String `tfsdk:"hook_source_id"`
	Action             types.String `tfsdk:"action"`
	Stage              types.String `tfsdk:"stage"`
	Arguments          types.List   `tfsdk:"arguments"`
	MatchingCriteria   types.List   `tfsdk:"matching_criteria"`
	Enabled            types.Bool   `tfsdk:"enabled"`
	Description        types.String `tfsdk:"description"`
	MatchingContainers types.List   `tfsdk:"matching_containers"`
	Metadata           types.Object `tfsdk:"metadata"`
}

// matchingCriterion is one of matching_criteria.
type matchingCriterion struct {
	Type  types.String `tfsdk:"type"`
	Value types.String `tfsdk:"value"`
}

var matchingCriterionAttrTypes = map[string]attr.Type{"type": types.StringType, "value": types.StringType}

// criteriaOf reads matching_criteria; nil when null or unknown.
func criteriaOf(v types.List) []matchingCriterion {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := make([]matchingCriterion, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		o, ok := e.(types.Object)
		if !ok || o.IsNull() || o.IsUnknown() {
			out = append(out, matchingCriterion{Type: types.StringUnknown(), Value: types.StringUnknown()})
			continue
		}
		typ, _ := o.Attributes()["type"].(types.String)
		val, _ := o.Attributes()["value"].(types.String)
		out = append(out, matchingCriterion{Type: typ, Value: val})
	}
	return out
}

// executionHookAPIFields maps the API's field names in invalidFields to attributes.
var executionHookAPIFields = map[string]string{
	"name": "name", "appID": "app_id", "hookSourceID": "hook_source_id", "action": "action", "stage": "stage",
	"arguments": "arguments", "matchingCriteria": "matching_criteria", "enabled": "enabled", "description": "description",
}

// hookProblem is one plan-time error of a hook's configuration.
type hookProblem struct {
	at              path.Path
	summary, detail string
}

// executionHookProblems are the rules the published schema states in prose, checked on the
// known values: restore and failover hooks run post only; each criterion's value compiles
// as an RE2 regular expression, the error naming the criterion.
func executionHookProblems(action, stage types.String, criteria types.List) []hookProblem {
	var out []hookProblem
	if a, s := action.ValueString(), stage.ValueString(); known(action) && known(stage) && (a == astra.HookActionRestore || a == astra.HookActionFailover) && s == astra.HookStagePre {
		out = append(out, hookProblem{path.Root("stage"), "A " + a + " hook runs post only",
			fmt.Sprintf("Astra Control runs %s hooks after the %s only: set stage = \"post\". To act before a %s, "+
				"hook the snapshot or backup it restores from.", a, a, a)})
	}
	for i, c := range criteriaOf(criteria) {
		if !isSet(c.Value) {
			continue
		}
		if err := validate.CheckRE2(c.Value.ValueString()); err != nil {
			out = append(out, hookProblem{path.Root("matching_criteria").AtListIndex(i).AtName("value"),
				"Invalid regular expression in a matching criterion",
				fmt.Sprintf("matching_criteria[%d] (type %s): %q is not an RE2 regular expression: %v. Astra Control matches "+
					"each criterion with RE2 syntax (https://github.com/google/re2/wiki/Syntax); escape characters such as "+
					"( [ { . + * ? with a backslash to match them literally.", i, c.Type.ValueString(), c.Value.ValueString(), err)})
		}
	}
	return out
}

// failoverProblem refuses a failover hook at a cluster API version whose release has no
// failover action (execution hook 1.2, before 23.07), naming the release that has it; "" if fine.
func failoverProblem(action, clusterVersion string) string {
	hookVersion := astra.ExecutionHookVersionFor(clusterVersion)
	if action != astra.HookActionFailover || versionAtLeast(hookVersion, "1.3") {
		return ""
	}
	return fmt.Sprintf("Failover hooks need execution hook version 1.3, which Astra Control 23.07 and later speak. The "+
		"provider's api_version is %s (release %s), whose execution hooks are version %s and have no failover action. "+
		"Raise api_version (or ASTRA_API_VERSION) to 1.5 or later if the service speaks it, or choose another action. %s",
		clusterVersion, astra.ReleaseFor(clusterVersion), hookVersion, reachVersion("1.5"))
}

func criteriaToAPI(criteria []matchingCriterion) []astra.MatchingCriterion {
	out := make([]astra.MatchingCriterion, 0, len(criteria))
	for _, c := range criteria {
		out = append(out, astra.MatchingCriterion{Type: criterionTypes[c.Type.ValueString()], Value: c.Value.ValueString()})
	}
	return out
}

// criterionTypeOf is the provider's spelling of an API criterion type; an unknown one is
// kept as the service spells it, so a newer type shows instead of vanishing.
func criterionTypeOf(api string) string {
	for tf, a := range criterionTypes {
		if a == api {
			return tf
		}
	}
	return api
}

func stringsOf(v types.List) []string {
	if v.IsNull() || v.IsUnknown() {
		return nil
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		if s, ok := e.(types.String); ok {
			out = append(out, s.ValueString())
		}
	}
	return out
}

// executionHookRequest is the POST of a planned hook.
func executionHookRequest(plan executionHookModel) astra.ExecutionHookCreate {
	return astra.ExecutionHookCreate{
		Name: plan.Name.ValueString(), AppID: plan.AppID.ValueString(), HookSourceID: plan.HookSourceID.ValueString(),
		Action: plan.Action.ValueString(), Stage: plan.Stage.ValueString(), Description: plan.Description.ValueString(),
		Arguments: stringsOf(plan.Arguments), MatchingCriteria: criteriaToAPI(criteriaOf(plan.MatchingCriteria)),
		Enabled: attrs.APIBool(plan.Enabled),
	}
}

// applyExecutionHookPlan sets, on the hook as just read, what the plan changes
// (planForFreshCopy: an unknown value keeps the read one).
func applyExecutionHookPlan(current *astra.ExecutionHook, plan executionHookModel) {
	set := func(dst *string, v types.String) {
		if !v.IsUnknown() {
			*dst = attrs.StringOrEmpty(v)
		}
	}
	set(&current.Name, plan.Name)
	set(&current.HookSourceID, plan.HookSourceID)
	set(&current.Action, plan.Action)
	set(&current.Stage, plan.Stage)
	set(&current.Description, plan.Description)
	if !plan.Arguments.IsUnknown() {
		current.Arguments = stringsOf(plan.Arguments)
	}
	if !plan.MatchingCriteria.IsUnknown() {
		current.MatchingCriteria = criteriaToAPI(criteriaOf(plan.MatchingCriteria))
	}
	if !plan.Enabled.IsUnknown() {
		current.Enabled = attrs.APIBool(plan.Enabled)
	}
}

// executionHookFrom converts the service's hook for state. An empty list the service
// reports is null unless the prior state held an empty list (a configuration that says
// `arguments = []`), so either spelling plans no change.
func executionHookFrom(h *astra.ExecutionHook, prior executionHookModel) executionHookModel {
	m := executionHookModel{
		ID: types.StringValue(h.ID), Name: types.StringValue(h.Name), AppID: types.StringValue(h.AppID),
		HookSourceID: types.StringValue(h.HookSourceID), Action: types.StringValue(h.Action), Stage: types.StringValue(h.Stage),
		Arguments: attrs.StringList(h.Arguments), Enabled: types.BoolValue(h.Enabled == nil || h.Enabled.Value()),
		Description: attrs.OptionalString(h.Description), Metadata: attrs.MetadataValue(h.Metadata),
		MatchingContainers: matchingContainersValue(h.MatchingContainers),
	}
	if len(h.Arguments) == 0 && !(known(prior.Arguments) && !prior.Arguments.IsNull()) {
		m.Arguments = types.ListNull(types.StringType)
	}
	criterionType := types.ObjectType{AttrTypes: matchingCriterionAttrTypes}
	m.MatchingCriteria = types.ListNull(criterionType)
	if len(h.MatchingCriteria) > 0 || (known(prior.MatchingCriteria) && !prior.MatchingCriteria.IsNull()) {
		elems := make([]attr.Value, 0, len(h.MatchingCriteria))
		for _, c := range h.MatchingCriteria {
			elems = append(elems, types.ObjectValueMust(matchingCriterionAttrTypes, map[string]attr.Value{
				"type": types.StringValue(criterionTypeOf(c.Type)), "value": types.StringValue(c.Value)}))
		}
		m.MatchingCriteria = types.ListValueMust(criterionType, elems)
	}
	return m
}

func matchingContainersValue(in []astra.MatchingContainer) types.List {
	typ := types.ObjectType{AttrTypes: matchingContainerAttrTypes}
	elems := make([]attr.Value, 0, len(in))
	for _, c := range in {
		elems = append(elems, types.ObjectValueMust(matchingContainerAttrTypes, map[string]attr.Value{
			"namespace_name": types.StringValue(c.NamespaceName), "pod_name": types.StringValue(c.PodName),
			"container_name": types.StringValue(c.ContainerName), "container_image": types.StringValue(c.ContainerImage),
		}))
	}
	return types.ListValueMust(typ, elems)
}
