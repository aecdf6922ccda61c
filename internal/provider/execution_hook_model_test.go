package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func criteriaList(pairs ...string) types.List {
	typ := types.ObjectType{AttrTypes: matchingCriterionAttrTypes}
	var elems []attr.Value
	for i := 0; i+1 < len(pairs); i += 2 {
		elems = append(elems, types.ObjectValueMust(matchingCriterionAttrTypes, map[string]attr.Value{
			"type": types.StringValue(pairs[i]), "value": types.StringValue(pairs[i+1])}))
	}
	return types.ListValueMust(typ, elems)
}

func TestExecutionHookProblems(t *testing.T) {
	s := types.StringValue
	cases := []struct {
		action, stage string
		criteria      types.List
		want          []string // "path: summary"
	}{
		{"snapshot", "pre", criteriaList("container_name", "^postgres$", "pod_label", "app=(db|pg)"), nil},
		{"restore", "pre", types.ListNull(types.ObjectType{AttrTypes: matchingCriterionAttrTypes}), []string{"stage: A restore hook runs post only"}},
		{"failover", "pre", criteriaList(), []string{"stage: A failover hook runs post only"}},
		{"restore", "post", criteriaList(), nil},
		{"backup", "post", criteriaList("container_image", "pg:1[45", "pod_name", "ok"),
			[]string{"matching_criteria[0].value: Invalid regular expression in a matching criterion"}},
	}
	for _, c := range cases {
		var got []string
		for _, p := range executionHookProblems(s(c.action), s(c.stage), c.criteria) {
			got = append(got, p.at.String()+": "+p.summary)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s/%s: %v, want %v", c.action, c.stage, got, c.want)
		}
	}
	// The detail names the criterion and the parser's reason.
	p := executionHookProblems(s("snapshot"), s("pre"), criteriaList("pod_name", "ok", "container_image", "pg:1[45"))
	if len(p) != 1 || !strings.Contains(p[0].detail, "matching_criteria[1] (type container_image): \"pg:1[45\" is not an RE2 regular expression: error parsing regexp: missing closing ]: `[45`") {
		t.Errorf("detail: %+v", p)
	}
	// Unknown values wait for apply.
	if p := executionHookProblems(types.StringUnknown(), s("pre"), types.ListUnknown(types.ObjectType{AttrTypes: matchingCriterionAttrTypes})); len(p) != 0 {
		t.Errorf("unknown: %+v", p)
	}
}

func TestFailoverProblem(t *testing.T) {
	for _, v := range []string{"1.3", "1.4"} {
		got := failoverProblem("failover", v)
		if !strings.Contains(got, "Failover hooks need execution hook version 1.3, which Astra Control 23.07 and later speak. The provider's api_version is "+v) ||
			!strings.Contains(got, "Raise api_version (or ASTRA_API_VERSION) to 1.5 or later") {
			t.Errorf("%s: %q", v, got)
		}
	}
	if got := failoverProblem("failover", "1.4"); !strings.Contains(got, "(release 23.05), whose execution hooks are version 1.2") {
		t.Errorf("1.4 names its release: %q", got)
	}
	for _, v := range []string{"1.5", "1.6", "1.7"} {
		if got := failoverProblem("failover", v); got != "" {
			t.Errorf("%s refused failover: %q", v, got)
		}
	}
	if got := failoverProblem("snapshot", "1.3"); got != "" {
		t.Errorf("a snapshot hook refused at 1.3: %q", got)
	}
}

func TestExecutionHookConversions(t *testing.T) {
	enabled := astra.Bool(false)
	h := &astra.ExecutionHook{ID: "h", Name: "pre-snap", AppID: "a", HookSourceID: "s", Action: "snapshot", Stage: "pre",
		Arguments: []string{"--fast"}, MatchingCriteria: []astra.MatchingCriterion{{Type: "containerName", Value: "^pg$"}, {Type: "futureType", Value: "x"}},
		MatchingContainers: []astra.MatchingContainer{{PodName: "pg-0", ContainerName: "pg", ContainerImage: "postgres:16", NamespaceName: "db"}},
		Enabled:            &enabled}
	m := executionHookFrom(h, executionHookModel{})
	crit := criteriaOf(m.MatchingCriteria)
	if len(crit) != 2 || crit[0].Type.ValueString() != "container_name" || crit[1].Type.ValueString() != "futureType" {
		t.Errorf("criteria: %+v", crit)
	}
	if m.Enabled.ValueBool() || len(m.MatchingContainers.Elements()) != 1 || len(stringsOf(m.Arguments)) != 1 || !m.Description.IsNull() {
		t.Errorf("model: %+v", m)
	}
	// Empty lists read null, unless the configuration said [].
	bare := &astra.ExecutionHook{ID: "h", Name: "n", Action: "snapshot", Stage: "post"}
	if m := executionHookFrom(bare, executionHookModel{}); !m.Arguments.IsNull() || !m.MatchingCriteria.IsNull() || !m.Enabled.ValueBool() {
		t.Errorf("bare: %v %v %v", m.Arguments, m.MatchingCriteria, m.Enabled)
	}
	prior := executionHookModel{Arguments: types.ListValueMust(types.StringType, nil), MatchingCriteria: criteriaList()}
	if m := executionHookFrom(bare, prior); m.Arguments.IsNull() || m.MatchingCriteria.IsNull() {
		t.Errorf("configured []: %v %v", m.Arguments, m.MatchingCriteria)
	}
	// The request and the PUT speak the API's criterion types.
	plan := executionHookModel{Name: types.StringValue("n"), AppID: types.StringValue("a"), HookSourceID: types.StringValue("s"),
		Action: types.StringValue("backup"), Stage: types.StringValue("pre"), Arguments: types.ListNull(types.StringType),
		MatchingCriteria: criteriaList("pod_label", "app=pg"), Enabled: types.BoolValue(true), Description: types.StringNull()}
	body := executionHookRequest(plan)
	if len(body.MatchingCriteria) != 1 || body.MatchingCriteria[0].Type != "podLabel" || body.Arguments != nil || !body.Enabled.Value() {
		t.Errorf("request: %+v", body)
	}
	// Only what the plan changes is applied to the fresh copy.
	fresh := *h
	change := executionHookModel{Name: types.StringUnknown(), HookSourceID: types.StringUnknown(), Action: types.StringUnknown(),
		Stage: types.StringValue("post"), Arguments: types.ListUnknown(types.StringType),
		MatchingCriteria: types.ListUnknown(types.ObjectType{AttrTypes: matchingCriterionAttrTypes}), Enabled: types.BoolUnknown(),
		Description: types.StringValue("after")}
	applyExecutionHookPlan(&fresh, change)
	if fresh.Name != "pre-snap" || fresh.Stage != "post" || fresh.Description != "after" || len(fresh.MatchingCriteria) != 2 ||
		fresh.Arguments[0] != "--fast" || fresh.Enabled.Value() {
		t.Errorf("applied: %+v", fresh)
	}
}
