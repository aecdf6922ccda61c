package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

var (
	_ resource.ResourceWithConfigure      = (*ldapResource)(nil)
	_ resource.ResourceWithImportState    = (*ldapResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*ldapResource)(nil)
	_ resource.ResourceWithValidateConfig = (*ldapResource)(nil)
)

type ldapResource struct{ clientHolder }

// newLDAPResource is astra_ldap.
func newLDAPResource() resource.Resource { return &ldapResource{} }

func (r *ldapResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_ldap"
}

func (r *ldapResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: ldapSchemaVersion,
		MarkdownDescription: "The account's LDAP configuration (Astra Control Center; Active Directory): the setting " +
			"`astra.account.ldap`, which always exists, so creating this resource adopts it and writes the configuration " +
			"(`PUT /core/v1/settings/{id}` of `desiredConfig`), and destroying it disables LDAP (`isEnabled` false; LDAP " +
			"users, groups and their role bindings stay, as does the bind credential). The bind account's password is " +
			"write-only. Every apply waits until Astra Control reports the configuration `valid`, and fails with its " +
			"reasons on `error`. Imports by the setting's ID (one per account).",
		Attributes: ldapAttributes(ctx),
	}
}

// ValidateConfig refuses the write-only password where the CLI cannot send it.
func (r *ldapResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var wo types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(ldapBindPassword.wo), &wo)...)
	if !resp.Diagnostics.HasError() && !wo.IsNull() && !req.ClientCapabilities.WriteOnlyAttributesAllowed {
		writeOnlyNeedsNewerCLI(&resp.Diagnostics, ldapBindPassword.wo, "the bind password has no stored variant (it would be "+
			"kept in state): upgrade the CLI, or configure LDAP in Astra Control's web UI and import it.")
	}
}

// ModifyPlan: a new configuration, or a new bind account, needs the bind password; the
// port follows secure when left out.
func (r *ldapResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan, cfg, prior ldapModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(stateGet(ctx, req.State, &prior)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Port.IsNull() && known(plan.Secure) {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("port"), defaultLDAPPort(plan.Secure.ValueBool()))...)
	}
	if req.State.Raw.IsNull() && cfg.BindDN.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("bind_dn"), "Missing bind_dn",
			"A new astra_ldap needs the account Astra Control binds to the directory as: set bind_dn (with "+
				ldapBindPassword.wo+"). Only an imported configuration may leave it out.")
	}
	newBind := req.State.Raw.IsNull() || (isSet(plan.BindDN) && !plan.BindDN.Equal(prior.BindDN))
	if newBind && cfg.BindPasswordWO.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root(ldapBindPassword.wo), "Missing bind password",
			"Astra Control binds to the directory with bind_dn and its password, which it never returns: a new LDAP "+
				"configuration, or a new bind_dn, needs "+ldapBindPassword.wo+" (with "+ldapBindPassword.woVersion+"). Only "+
				"an imported configuration may leave it out, and keeps the password Astra Control holds.")
	}
}

func defaultLDAPPort(secure bool) types.Int64 {
	if secure {
		return types.Int64Value(636)
	}
	return types.Int64Value(389)
}

func (r *ldapResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan ldapModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.write(ctx, plan, req.Config, true, creating, &resp.State, &resp.Diagnostics)
}

func (r *ldapResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan ldapModel
	resp.Diagnostics.Append(planGet(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sendPassword, d := attrsChanged(ctx, req, ldapBindPassword.woVersion)
	resp.Diagnostics.Append(d...)
	bindChanged, d := attrsChanged(ctx, req, "bind_dn")
	resp.Diagnostics.Append(d...)
	r.write(ctx, plan, req.Config, sendPassword || bindChanged, updating, &resp.State, &resp.Diagnostics)
}

// write stores the bind credential when sendPassword (created, or found by name and
// replaced), PUTs the setting's desiredConfig over the config as read, and waits for valid.
func (r *ldapResource) write(ctx context.Context, plan ldapModel, config tfsdk.Config, sendPassword bool, op operation,
	state *tfsdk.State, diags *diag.Diagnostics) {
	client := r.client(diags)
	if diags.HasError() {
		return
	}
	timeout, ok := timeoutOf(ctx, plan.Timeouts, op, ldapTimeouts, diags)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	credentialID := ""
	if sendPassword {
		var wo types.String
		diags.Append(config.GetAttribute(ctx, path.Root(ldapBindPassword.wo), &wo)...)
		if !isSet(wo) {
			if !diags.HasError() {
				diags.AddAttributeError(path.Root(ldapBindPassword.wo), "Missing bind password", "Set "+ldapBindPassword.wo+" to send the bind account.")
			}
			return
		}
		if credentialID = r.storeBindCredential(ctx, client, plan.BindDN.ValueString(), wo.ValueString(), diags); credentialID == "" {
			return
		}
	}
	var setting *astra.Setting
	read := func(ctx context.Context) (*astra.Setting, error) {
		s, err := client.LDAPSetting(ctx)
		if err == nil {
			setting = s
		}
		return s, err
	}
	updated := updateFromFreshCopy(ctx, diags, client, "LDAP setting", "astra.account.ldap", nil, read, func(s *astra.Setting) {
		current := astra.LDAPConfigOf(s.CurrentConfig)
		if len(s.DesiredConfig) > 0 {
			current = astra.LDAPConfigOf(s.DesiredConfig)
		}
		s.DesiredConfig = ldapConfigOf(plan, current, credentialID).Config()
	}, client.UpdateSetting)
	if updated == nil {
		return
	}
	setting = updated
	final, err := astra.WaitFrom(ctx, r.waitSchedule(), updated, func(ctx context.Context) (*astra.Setting, error) {
		return client.GetSetting(ctx, updated.ID)
	}, astra.LDAPApplied)
	if final != nil {
		setting = final
	}
	m := ldapFrom(setting, plan)
	diags.Append(setState(ctx, state, m)...)
	if err != nil {
		addWaitError(diags, "LDAP configuration not applied", err, timeout, "The configuration was written; state holds "+
			"it as Astra Control reports it. Fix what the reasons name (the URL, port, certificate, bind account, search "+
			"bases) and apply again.")
	}
}

// storeBindCredential stores the bind account in the credential named
// ldapBindCredentialName, replacing it when it exists; its ID, "" when it added an error.
func (r *ldapResource) storeBindCredential(ctx context.Context, client *astra.Client, bindDN, password string, diags *diag.Diagnostics) string {
	body := astra.LDAPBindCredential(ldapBindCredentialName, bindDN, password)
	existing, err := client.FindCredential(ctx, ldapBindCredentialName)
	var cred *astra.Credential
	if err == nil && existing != nil {
		cred, err = client.UpdateCredential(ctx, existing.ID, body)
	} else if err == nil {
		cred, err = client.CreateCredential(ctx, body)
	}
	if err != nil {
		addAPIError(diags, "Cannot store the LDAP bind account", err, map[string]string{"keyStore": ldapBindPassword.wo})
		return ""
	}
	return cred.ID
}

func (r *ldapResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, ok := fromState[ldapModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	s, err := client.GetSetting(ctx, state.ID.ValueString())
	if err != nil {
		addAPIError(&resp.Diagnostics, "Cannot read the LDAP setting", err, nil)
		return
	}
	if s.Name != astra.LDAPSettingName {
		resp.Diagnostics.AddError("Not the LDAP setting", fmt.Sprintf("Setting %s is %q, not %q: import the ID of the "+
			"account's LDAP setting.", s.ID, s.Name, astra.LDAPSettingName))
		return
	}
	resp.Diagnostics.Append(setState(ctx, &resp.State, ldapFrom(s, state))...)
}

// Delete disables LDAP: the same configuration with isEnabled false. Users, groups and
// role bindings stay; so does the bind credential, which the configuration still names.
func (r *ldapResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, client, ok := fromState[ldapModel](ctx, &r.clientHolder, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, ok := timeoutOf(ctx, state.Timeouts, deleting, ldapTimeouts, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	updated := updateFromFreshCopy(ctx, &resp.Diagnostics, client, "LDAP setting", state.ID.ValueString(), nil,
		func(ctx context.Context) (*astra.Setting, error) {
			return client.GetSetting(ctx, state.ID.ValueString())
		},
		func(s *astra.Setting) {
			cfg := astra.LDAPConfigOf(s.CurrentConfig)
			if len(s.DesiredConfig) > 0 {
				cfg = astra.LDAPConfigOf(s.DesiredConfig)
			}
			cfg.Enabled = false
			s.DesiredConfig = cfg.Config()
		}, client.UpdateSetting)
	if updated == nil {
		return
	}
	if _, err := astra.WaitFrom(ctx, r.waitSchedule(), updated, func(ctx context.Context) (*astra.Setting, error) {
		return client.GetSetting(ctx, updated.ID)
	}, astra.LDAPApplied); err != nil {
		addWaitError(&resp.Diagnostics, "LDAP not disabled", err, timeout, "Astra Control was asked to disable LDAP; check the setting in its web UI.")
	}
}

func (r *ldapResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
