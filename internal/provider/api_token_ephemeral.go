package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

var (
	_ provider.ProviderWithEphemeralResources  = (*astraProvider)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*apiTokenEphemeral)(nil)
	_ ephemeral.EphemeralResourceWithClose     = (*apiTokenEphemeral)(nil)
)

// EphemeralResources (Terraform 1.10+, OpenTofu 1.11+): values that live for one run only.
func (p *astraProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{newAPITokenEphemeral}
}

// apiTokenEphemeral is astra_api_token: a token opened for one run and revoked at its end.
type apiTokenEphemeral struct{ clientHolder }

func newAPITokenEphemeral() ephemeral.EphemeralResource { return &apiTokenEphemeral{} }

type apiTokenModel struct {
	Name   types.String `tfsdk:"name"`
	UserID types.String `tfsdk:"user_id"`
	ID     types.String `tfsdk:"id"`
	Token  types.String `tfsdk:"token"`
}

// apiTokenOpened is what Close needs, kept in the ephemeral resource's private data (never
// in state or plan): which token of which user to delete.
type apiTokenOpened struct {
	UserID string `json:"user_id"`
	ID     string `json:"id"`
}

const apiTokenPrivateKey = "opened"

func (e *apiTokenEphemeral) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_api_token"
}

func (e *apiTokenEphemeral) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API token that lives for one Terraform run (an ephemeral resource: Terraform 1.10 or " +
			"later, OpenTofu 1.11 or later; Terraform 1.5 does not know the `ephemeral` block). Opening it creates a token " +
			"(`POST /core/v1/users/{user_id}/tokens`) and hands its secret to the run only, for example to another provider " +
			"configuration's `api_token` or a CI system's secret store; closing it, at the end of the run, deletes the token, " +
			"which revokes it at once. Nothing of it reaches state or plan. A token carries its user's role.\n\n" +
			"A run that is killed before it closes the token (the process dies; Ctrl-C still closes) leaves that one token " +
			"behind, named `name`: the next open warns about it with its ID. Delete such leftovers in Astra Control's web UI " +
			"(Account > API access) or with `DELETE /accounts/{account_id}/core/v1/users/{user_id}/tokens/{id}`; " +
			"`GET .../users/{user_id}/tokens` lists them by name. Give each configuration (and each concurrent pipeline) its " +
			"own `name`, so that a leftover is told apart from a token in use.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "Name of the token, 1 to 63 characters, for example `ci-${var.pipeline_id}`: what finds a " +
					"token an interrupted run left behind.",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 63)},
			},
			"user_id": schema.StringAttribute{
				Optional: true,
				Computed: true, // the own user's ID when left out
				MarkdownDescription: "The user the token belongs to and acts as. Left out: the user of the provider's own " +
					"API token, when its token names it (a JWT); otherwise set it. Another user's token needs the admin role.",
				Validators: []validator.String{validate.UUID()},
			},
			"id":    schema.StringAttribute{Computed: true, MarkdownDescription: "ID of the token in Astra Control."},
			"token": schema.StringAttribute{Computed: true, Sensitive: true, MarkdownDescription: "The token's secret, the bearer token to authenticate with. Shown by Astra Control only once, here."},
		},
	}
}

func (e *apiTokenEphemeral) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	e.configure(req.ProviderData, &resp.Diagnostics)
}

// Open creates the token. Its secret goes to the result only; what Close needs goes to the
// private data. A POST whose answer was lost is cleaned up (the token it may have made is
// found by name and deleted), so a failed open leaves no token.
func (e *apiTokenEphemeral) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m apiTokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client := e.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	userID := m.UserID.ValueString()
	if userID == "" {
		own, ok := client.TokenUserID()
		if !ok {
			resp.Diagnostics.AddAttributeError(path.Root("user_id"), "Missing user_id",
				"The provider's API token does not say which user it belongs to (it is not a JWT that names one), so "+
					"astra_api_token cannot open a token for that user: set user_id (the astra_users data source lists the users).")
			return
		}
		userID = own
	}
	name := m.Name.ValueString()
	warnLeftovers(ctx, client, userID, name, &resp.Diagnostics)
	sent := time.Now()
	tok, err := client.CreateToken(ctx, userID, name)
	if err != nil {
		if astra.IsUnknownOutcome(err) {
			cleanUpLostToken(context.WithoutCancel(ctx), client, userID, name, sent, tok)
		}
		addAPIError(&resp.Diagnostics, "Cannot open the API token", err, map[string]string{"name": "name"})
		return
	}
	opened, _ := json.Marshal(apiTokenOpened{UserID: userID, ID: tok.ID})
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, apiTokenPrivateKey, opened)...)
	m.UserID, m.ID, m.Token = types.StringValue(userID), types.StringValue(tok.ID), types.StringValue(tok.Secret)
	resp.Diagnostics.Append(resp.Result.Set(ctx, m)...)
}

// Close deletes the token the run opened; one already gone is no error.
func (e *apiTokenEphemeral) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	raw, d := req.Private.GetKey(ctx, apiTokenPrivateKey)
	resp.Diagnostics.Append(d...)
	var opened apiTokenOpened
	if resp.Diagnostics.HasError() || len(raw) == 0 || json.Unmarshal(raw, &opened) != nil || opened.ID == "" {
		return
	}
	client := e.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := client.DeleteToken(context.WithoutCancel(ctx), opened.UserID, opened.ID); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the API token",
			fmt.Errorf("%w\n\nThe token %s of user %s is still valid: delete it in Astra Control (Account > API access)", err, opened.ID, opened.UserID), nil)
	}
}

// warnLeftovers warns about tokens of the same name an interrupted run left behind.
func warnLeftovers(ctx context.Context, client *astra.Client, userID, name string, diags *diag.Diagnostics) {
	tokens, err := client.ListTokens(ctx, userID, astra.ListOptions{})
	if err != nil {
		return // the POST reports what matters
	}
	var ids []string
	for _, t := range tokens {
		if t.Name == name {
			ids = append(ids, t.ID)
		}
	}
	if len(ids) == 0 {
		return
	}
	sort.Strings(ids)
	diags.AddWarning("API tokens of the same name exist",
		fmt.Sprintf("User %s already has tokens named %q: %s. A run interrupted before it could delete its astra_api_token "+
			"leaves one behind; unless another run using this name is in progress, delete them in Astra Control (Account > "+
			"API access) or with DELETE /core/v1/users/%s/tokens/<id>.", userID, name, strings.Join(ids, ", "), userID))
}

// cleanUpLostToken deletes the token a POST with a lost answer made: the one named name,
// created since sent (or the one the answer named, when it named one).
func cleanUpLostToken(ctx context.Context, client *astra.Client, userID, name string, sent time.Time, answered *astra.Token) {
	if answered != nil && answered.ID != "" {
		_ = client.DeleteToken(ctx, userID, answered.ID)
		return
	}
	tokens, err := client.ListTokens(ctx, userID, astra.ListOptions{})
	if err != nil {
		return
	}
	for _, t := range tokens {
		created, perr := time.Parse(time.RFC3339, t.Metadata.CreationTimestamp)
		if t.Name == name && perr == nil && !created.Before(sent.Add(-time.Second)) {
			_ = client.DeleteToken(ctx, userID, t.ID)
		}
	}
}
