// Package floor holds the do-nothing providers the fleet benchmark measures the provider
// against: a trivial one (one resource, one string) and one serving every resource type's
// exact schema, taken from the provider itself at run time so it cannot drift. Neither
// calls an API.
package floor

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	astraprovider "github.com/astra-control/terraform-provider-astra/internal/provider"
)

// Trivial is a provider "floor" with one resource, floor_thing { name }.
func Trivial() provider.Provider {
	return &floorProvider{name: "floor", resources: []func() resource.Resource{
		func() resource.Resource {
			return &nothing{typeName: "floor_thing", schema: schema.Schema{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Required: true},
			}}}
		},
	}}
}

// SameSchema is a provider "astra" whose resources have the real resources' schemas and
// do nothing: create and update store the plan, read answers with the prior state.
func SameSchema() provider.Provider {
	ctx := context.Background()
	astraProvider := astraprovider.New("floor")()
	var resources []func() resource.Resource
	for _, newResource := range astraProvider.Resources(ctx) {
		r := newResource()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		resources = append(resources, func() resource.Resource { return &nothing{typeName: meta.TypeName, schema: resp.Schema} })
	}
	var prov provider.SchemaResponse
	astraProvider.Schema(ctx, provider.SchemaRequest{}, &prov)
	return &floorProvider{name: "astra", schema: prov.Schema, resources: resources}
}

type floorProvider struct {
	name      string
	schema    pschema.Schema
	resources []func() resource.Resource
}

func (p *floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = p.name
}

func (p *floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = p.schema
}

func (p *floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p *floorProvider) Resources(context.Context) []func() resource.Resource { return p.resources }

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// nothing is a resource that stores what it is given.
type nothing struct {
	typeName string
	schema   schema.Schema
}

func (r *nothing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.typeName
}

func (r *nothing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}

func (r *nothing) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State = known(req.Plan)
}

func (r *nothing) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *nothing) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State = known(req.Plan)
}

func (r *nothing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// known is the plan with every unknown (computed) value null: what an API would have filled.
// An unknown `id` gets a value, so a resource that references another (a managed cluster's
// required cluster_id) can be created.
func known(plan tfsdk.Plan) tfsdk.State {
	id := tftypes.NewAttributePath().WithAttributeName("id")
	raw, _ := tftypes.Transform(plan.Raw, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		switch {
		case !v.IsKnown() && p.Equal(id) && v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, floorID), nil
		case !v.IsKnown():
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	return tfsdk.State{Schema: plan.Schema, Raw: raw}
}

// floorID is the ID of everything the floor creates.
const floorID = "00000000-0000-4000-8000-000000000001"
