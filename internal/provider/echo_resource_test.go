package provider

// astra_acctest_echo: a test-only resource that proves the acceptance harness drives a
// real CLI through create, plan, import, update and destroy. It keeps its objects in an
// in-memory echoStore so tests can assert what the CLI actually asked the provider to do.

import (
	"context"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// echoStore is the "remote API" of astra_acctest_echo.
type echoStore struct {
	mu      sync.Mutex
	next    int
	objects map[string]string // id → value
	creates int
	deletes int
}

func newEchoStore() *echoStore { return &echoStore{objects: map[string]string{}} }

func (s *echoStore) create(value string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	s.creates++
	id := fmt.Sprintf("echo-%d", s.next)
	s.objects[id] = value
	return id
}

func (s *echoStore) get(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.objects[id]
	return v, ok
}

func (s *echoStore) put(id, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[id] = value
}

func (s *echoStore) remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deletes++
	delete(s.objects, id)
}

// snapshot returns a copy of the objects and the create/delete counts.
func (s *echoStore) snapshot() (objects map[string]string, creates, deletes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	objects = make(map[string]string, len(s.objects))
	for k, v := range s.objects {
		objects[k] = v
	}
	return objects, s.creates, s.deletes
}

var (
	_ resource.Resource                = (*echoResource)(nil)
	_ resource.ResourceWithImportState = (*echoResource)(nil)
)

type echoResource struct{ store *echoStore }

type echoModel struct {
	ID    types.String `tfsdk:"id"`
	Value types.String `tfsdk:"value"`
}

func (r *echoResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_acctest_echo"
}

func (r *echoResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Test-only: stores a value in memory.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"value": schema.StringAttribute{Required: true},
		},
	}
}

func (r *echoResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan echoModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = types.StringValue(r.store.create(plan.Value.ValueString()))
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *echoResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state echoModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	value, ok := r.store.get(state.ID.ValueString())
	if !ok {
		resp.State.RemoveResource(ctx)
		return
	}
	state.Value = types.StringValue(value)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *echoResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan echoModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.store.put(plan.ID.ValueString(), plan.Value.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *echoResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state echoModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.store.remove(state.ID.ValueString())
}

func (r *echoResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
