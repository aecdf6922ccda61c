package knownanswers

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The switch, on a provider of one resource that counts which of its methods run: the
// framework calls Read and ModifyPlan, the known answers ReadAnswer and CheckPlan.

// calls counts the calls of thing's methods.
type calls struct{ read, readAnswer, modifyPlan, checkPlan int }

// thing is test_thing: { id, name }, whose object on the "service" is always
// { id = "t-1", name = "x" }. It takes part in the known plans and reads.
type thing struct{ calls *calls }

var (
	_ PlanChecker                     = (*thing)(nil)
	_ AnswerReader                    = (*thing)(nil)
	_ resource.ResourceWithModifyPlan = (*thing)(nil)
	_ resource.ResourceWithIdentity   = (*thing)(nil)
)

var thingAnswer = map[string]string{"id": "t-1", "name": "x"}

func (r *thing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (r *thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":   schema.StringAttribute{Computed: true},
		"name": schema.StringAttribute{Optional: true},
	}}
}

func (r *thing) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"id": identityschema.StringAttribute{RequiredForImport: true}}}
}

func (r *thing) Read(ctx context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	r.calls.read++
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), thingAnswer["id"])...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), thingAnswer["name"])...)
	resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root("id"), thingAnswer["id"])...)
	RecordAnswer(ctx, resp.Private, thingAnswer, resp.State, &resp.Diagnostics)
}

func (r *thing) ReadAnswer(context.Context, map[string]string) (any, bool) {
	r.calls.readAnswer++
	return thingAnswer, true
}

func (r *thing) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.calls.modifyPlan++
	ModifyPlan(ctx, r, req, resp)
}

func (r *thing) CheckPlan(context.Context, PlanRequest) diag.Diagnostics {
	r.calls.checkPlan++
	return nil
}

func (r *thing) Create(context.Context, resource.CreateRequest, *resource.CreateResponse) {}
func (r *thing) Update(context.Context, resource.UpdateRequest, *resource.UpdateResponse) {}
func (r *thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// thingProvider serves thing.
type thingProvider struct{ calls *calls }

var _ Provider = (*thingProvider)(nil)

func (p *thingProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "test"
}
func (p *thingProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}
func (p *thingProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}
func (p *thingProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }
func (p *thingProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thing{calls: p.calls} }}
}
func (p *thingProvider) ResourceData() any       { return nil }
func (p *thingProvider) ConfigureDeferred() bool { return false }

// thingRequests are the requests of a steady plan of the thing: its refresh, which the
// known answers take once its first read has sealed its answer, and a plan that proposes
// it unchanged.
type thingRequests struct {
	typ      tftypes.Object
	identity tftypes.Object
	state    tftypes.Value
}

func newThingRequests() thingRequests {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "name": tftypes.String}}
	return thingRequests{typ: typ, identity: tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String}},
		state: tftypes.NewValue(typ, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "t-1"), "name": tftypes.NewValue(tftypes.String, "x")})}
}

func (q thingRequests) dynamic(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// refresh reads the thing twice, as two plans' refreshes do: the second with the private
// state the first left.
func (q thingRequests) refresh(t *testing.T, server tfprotov6.ProviderServer) {
	t.Helper()
	req := &tfprotov6.ReadResourceRequest{TypeName: "test_thing", CurrentState: q.dynamic(t, q.typ, q.state)}
	for range 2 {
		resp, err := server.ReadResource(context.Background(), req)
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("read: %v %v", err, resp.Diagnostics)
		}
		req = &tfprotov6.ReadResourceRequest{TypeName: "test_thing", CurrentState: resp.NewState, CurrentIdentity: resp.NewIdentity, Private: resp.Private}
	}
}

// plan plans the thing unchanged.
func (q thingRequests) plan(t *testing.T, server tfprotov6.ProviderServer) {
	t.Helper()
	config := tftypes.NewValue(q.typ, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, nil), "name": tftypes.NewValue(tftypes.String, "x")})
	resp, err := server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{TypeName: "test_thing",
		PriorState: q.dynamic(t, q.typ, q.state), ProposedNewState: q.dynamic(t, q.typ, q.state), Config: q.dynamic(t, q.typ, config)})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("plan: %v %v", err, resp.Diagnostics)
	}
}

// TestSwitch: with ASTRA_KNOWN_ANSWERS unset or on, the known answers take the steady
// plan's second refresh (ReadAnswer instead of Read) and its plan (CheckPlan instead of
// ModifyPlan); off, every request goes to the framework, which calls Read and ModifyPlan.
func TestSwitch(t *testing.T) {
	for _, c := range []struct {
		value    string
		answered bool
	}{
		{"", true}, {"on", true}, {"TRUE", true}, {"1", true},
		{"off", false}, {"Off", false}, {"false", false}, {"0", false},
	} {
		t.Run(c.value, func(t *testing.T) {
			t.Setenv(SwitchVariable, c.value)
			counted := &calls{}
			server, err := NewServer(&thingProvider{calls: counted})()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{}); err != nil {
				t.Fatal(err)
			}
			q := newThingRequests()
			q.refresh(t, server)
			q.plan(t, server)
			want := calls{read: 2, modifyPlan: 1, checkPlan: 1} // the framework's, whose ModifyPlan runs the checks
			if c.answered {
				want = calls{read: 1, readAnswer: 1, checkPlan: 1}
			}
			if *counted != want {
				t.Errorf("calls %+v, want %+v", *counted, want)
			}
		})
	}
}

// TestSwitch_refused: a value the switch does not take is refused at Configure, naming the
// variable and what it takes; until then every request goes to the framework.
func TestSwitch_refused(t *testing.T) {
	for _, value := range []string{"maybe", "no", "disabled", "2"} {
		t.Run(value, func(t *testing.T) {
			t.Setenv(SwitchVariable, value)
			counted := &calls{}
			server, err := NewServer(&thingProvider{calls: counted})()
			if err != nil {
				t.Fatal(err)
			}
			q := newThingRequests()
			q.refresh(t, server)
			if want := (calls{read: 2}); *counted != want {
				t.Errorf("calls %+v, want the framework's %+v", *counted, want)
			}
			resp, err := server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{})
			if err != nil || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
				t.Fatalf("configure: %v %+v, want one error", err, resp)
			}
			d := resp.Diagnostics[0]
			for _, text := range []string{"Invalid ASTRA_KNOWN_ANSWERS", `ASTRA_KNOWN_ANSWERS is "` + value + `"`, "off, false or 0", "on, true or 1"} {
				if !strings.Contains(d.Summary+": "+d.Detail, text) {
					t.Errorf("the error %q: %q lacks %q", d.Summary, d.Detail, text)
				}
			}
		})
	}
}
