package provider

import (
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// roleBindingModel is the astra_role_binding resource.
type roleBindingModel struct {
	ID                   types.String `tfsdk:"id"`
	UserID               types.String `tfsdk:"user_id"`
	GroupID              types.String `tfsdk:"group_id"`
	Role                 types.String `tfsdk:"role"`
	NamespaceConstraints types.Set    `tfsdk:"namespace_constraints"`
	Metadata             types.Object `tfsdk:"metadata"`
}

// roleBindingAPIFields maps the API's field names in invalidFields to attributes.
var roleBindingAPIFields = map[string]string{"userID": "user_id", "groupID": "group_id", "role": "role",
	"roleConstraints": "namespace_constraints"}

// constraintAttrTypes are one namespace constraint's attributes.
var constraintAttrTypes = map[string]attr.Type{"namespace_id": types.StringType, "kubernetes_labels": types.StringType}

var constraintType = types.ObjectType{AttrTypes: constraintAttrTypes}

// constraintsToAPI is the roleConstraints of a set of constraints: ["*"] (every
// namespace) for none, else one entry per namespace, sorted so that the same set is the
// same body.
func constraintsToAPI(set types.Set) []string {
	if set.IsNull() || set.IsUnknown() || len(set.Elements()) == 0 {
		return []string{astra.EveryNamespace}
	}
	var out []string
	for _, e := range set.Elements() {
		o, ok := e.(types.Object)
		if !ok {
			continue
		}
		id, label := objectString(o, "namespace_id"), objectString(o, "kubernetes_labels")
		switch {
		case id != "":
			out = append(out, astra.NamespaceIDConstraint(id))
		case label != "":
			out = append(out, astra.NamespaceLabelConstraint(label))
		}
	}
	sort.Strings(out)
	return out
}

// constraintsFrom converts the service's roleConstraints; "*" is every namespace, which
// keeps prior's spelling of it (left out, or an empty set). unknown are the entries no
// attribute can say (namespaces:*, a namespace without its contents, ...).
func constraintsFrom(rc []string, prior types.Set) (set types.Set, unknown []string) {
	if len(rc) == 1 && rc[0] == astra.EveryNamespace {
		if !prior.IsUnknown() && (prior.IsNull() || len(prior.Elements()) == 0) {
			return prior, nil
		}
		return types.SetNull(constraintType), nil
	}
	elems := make([]attr.Value, 0, len(rc))
	for _, c := range rc {
		kind, value, ok := astra.ParseConstraint(c)
		if !ok {
			unknown = append(unknown, c)
			continue
		}
		m := map[string]attr.Value{"namespace_id": types.StringNull(), "kubernetes_labels": types.StringNull()}
		if kind == "id" {
			m["namespace_id"] = types.StringValue(value)
		} else {
			m["kubernetes_labels"] = types.StringValue(value)
		}
		elems = append(elems, types.ObjectValueMust(constraintAttrTypes, m))
	}
	return types.SetValueMust(constraintType, elems), unknown
}

// roleBindingFrom converts the service's binding for state.
func roleBindingFrom(b *astra.RoleBinding, prior roleBindingModel) (roleBindingModel, []string) {
	constraints, unknown := constraintsFrom(b.RoleConstraints, prior.NamespaceConstraints)
	return roleBindingModel{
		ID: types.StringValue(b.ID), UserID: attrs.OptionalString(b.User()), GroupID: attrs.OptionalString(b.Group()),
		Role: types.StringValue(b.Role), NamespaceConstraints: constraints, Metadata: attrs.MetadataValue(b.Metadata),
	}, unknown
}

// applyRoleBindingPlan sets, on the binding as just read, the role and constraints the
// plan changes.
func applyRoleBindingPlan(b *astra.RoleBinding, plan roleBindingModel) {
	if !plan.Role.IsUnknown() {
		b.Role = plan.Role.ValueString()
	}
	if !plan.NamespaceConstraints.IsUnknown() {
		b.RoleConstraints = constraintsToAPI(plan.NamespaceConstraints)
	}
}
