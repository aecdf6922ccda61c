package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// astra_app_restore's restore_filter: a selective restore, the restoreFilter of the 24.02
// app PUT (app 2.2, cluster API 23.05 and later), as Astra Control Center's "restore apps"
// page and actoolkit's --filterSelection/--filterSet offer it.

type restoreFilterModel struct {
	Selection types.String                 `tfsdk:"selection"`
	Resources []restoreFilterResourceModel `tfsdk:"resources"`
}

type restoreFilterResourceModel struct {
	Group          types.String `tfsdk:"group"`
	Version        types.String `tfsdk:"version"`
	Kind           types.String `tfsdk:"kind"`
	Namespaces     types.List   `tfsdk:"namespaces"`
	Names          types.List   `tfsdk:"names"`
	LabelSelectors types.List   `tfsdk:"label_selectors"`
}

func restoreFilterAttribute() schema.SingleNestedAttribute {
	names := func(what string) schema.ListAttribute {
		return schema.ListAttribute{
			Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Matches resources " + what + " any of these (Kubernetes names: lower-case letters, digits and `-`, at most 63, as the API's schema requires).",
			Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(validate.DNSLabel(63))},
		}
	}
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Restores only some of the app's resources (a selective restore; Astra Control 23.05 or later): " +
			"a resource matches an entry of `resources` when every field the entry sets matches; the resources matching " +
			"any entry are restored (`selection = \"include\"`) or left as they are (`\"exclude\"`). Without it, everything is restored.",
		Attributes: map[string]schema.Attribute{
			"selection": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "`include` (restore only the matching resources) or `exclude` (restore all but them).",
				Validators:          []validator.String{stringvalidator.OneOf("include", "exclude")},
			},
			"resources": schema.ListNestedAttribute{
				Required:            true,
				MarkdownDescription: "The resources to match; each entry sets at least one field.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1)},
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"group":      schema.StringAttribute{Optional: true, MarkdownDescription: "API group, such as `apps`; `\"\"` is the core group."},
						"version":    schema.StringAttribute{Optional: true, MarkdownDescription: "API version, such as `v1`."},
						"kind":       schema.StringAttribute{Optional: true, MarkdownDescription: "Kind, such as `PersistentVolumeClaim`."},
						"namespaces": names("in"),
						"names":      names("named"),
						"label_selectors": schema.ListAttribute{
							Optional: true, ElementType: types.StringType,
							MarkdownDescription: "Kubernetes label selectors, all of which a resource must match.",
							Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(validate.LabelSelector())},
						},
					},
					Validators: []validator.Object{nonEmptyFilter{}},
				},
			},
		},
	}
}

// nonEmptyFilter: an entry that sets nothing is refused by the service ("Specifying empty
// GVKN objects results in a validation error"), so at plan time, naming the entry.
type nonEmptyFilter struct{}

func (nonEmptyFilter) Description(context.Context) string {
	return "sets at least one of group, version, kind, namespaces, names, label_selectors"
}
func (v nonEmptyFilter) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (nonEmptyFilter) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, v := range req.ConfigValue.Attributes() {
		if !v.IsNull() {
			return
		}
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Empty restore filter entry",
		fmt.Sprintf("%s sets nothing, and Astra Control refuses an empty filter: set at least one of group, version, kind, "+
			"namespaces, names or label_selectors, or remove the entry.", req.Path.String()))
}

// restoreFilterFrom is the API's restoreFilter for the action's restore_filter; nil without.
func restoreFilterFrom(ctx context.Context, obj types.Object, diags *diag.Diagnostics) *astra.RestoreFilter {
	if !isSet(obj) {
		return nil
	}
	var m restoreFilterModel
	diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return nil
	}
	out := &astra.RestoreFilter{SelectionCriteria: m.Selection.ValueString(), GVKN: []astra.GVKNFilter{}}
	for _, r := range m.Resources {
		f := astra.GVKNFilter{Version: r.Version.ValueString(), Kind: r.Kind.ValueString(),
			Namespaces: stringsOf(r.Namespaces), Names: stringsOf(r.Names), LabelSelectors: stringsOf(r.LabelSelectors)}
		if !r.Group.IsNull() {
			g := r.Group.ValueString()
			f.Group = &g
		}
		out.GVKN = append(out.GVKN, f)
	}
	return out
}
