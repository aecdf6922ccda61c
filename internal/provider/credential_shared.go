package provider

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// What the credential resources (kubeconfig, S3, service account) share: a secret set
// either as a sensitive argument kept in state or as a write-only one with a version, a key
// store the service never returns, and a rotation that is one PUT of the whole credential.

// secretArgument names a credential's secret: the sensitive argument stored in state
// (plain), its write-only twin (wo) and the version whose change sends the write-only value.
type secretArgument struct {
	plain, wo, woVersion string
	what                 string // how errors call the secret: "kubeconfig", "secret access key"
	// howToSet says how to supply the secret, in every error that needs one.
	howToSet string
}

// newSecretArgument is the secret argument plain with plain_wo and plain_wo_version.
func newSecretArgument(plain, what, howToSet string) secretArgument {
	return secretArgument{plain: plain, wo: plain + "_wo", woVersion: plain + "_wo_version", what: what, howToSet: howToSet}
}

// rotatedBy are the arguments whose change sends the secret again (the write-only value is
// never in a plan: its version stands for it).
func (a secretArgument) rotatedBy() []string { return []string{a.plain, a.woVersion} }

// attributes are the three arguments: plain (described by plainDescription and checked by
// plainValidators), the write-only twin and its version, exactly one of plain and wo.
func (a secretArgument) attributes(plainDescription string, plainValidators ...validator.String) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		a.plain: schema.StringAttribute{
			Optional:            true,
			Sensitive:           true,
			MarkdownDescription: plainDescription,
			Validators:          append(plainValidators, stringvalidator.ConflictsWith(path.MatchRoot(a.wo))),
		},
		a.wo: schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			WriteOnly: true,
			MarkdownDescription: "Write-only variant of `" + a.plain + "`: sent to Astra Control but never stored in state or plan. " +
				"Needs Terraform 1.11 or later (older CLIs: use `" + a.plain + "`; Terraform 1.5 refuses it with two errors, the " +
				"framework's and one naming `" + a.plain + "`). Requires `" + a.woVersion + "`: since the " +
				"value is not stored, only a change of that version rotates the credential.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(a.woVersion))},
		},
		a.woVersion: schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Any value that changes whenever `" + a.wo + "` changes (a counter, a date, or a hash of " +
				"the file); a change rotates the credential in place with the current `" + a.wo + "`.",
			Validators: []validator.String{stringvalidator.AlsoRequires(path.MatchRoot(a.wo))},
		},
	}
}

// credentialAttributes are what every credential resource has: id, name, the secret's
// arguments (attributes) and metadata, which a rename or a rotation changes; alsoRotatedBy
// are arguments sent with the secret (sentWithSecret), whose change is a rotation too.
func (a secretArgument) credentialAttributes(plainDescription string, plainValidators []validator.String, alsoRotatedBy ...string) map[string]schema.Attribute {
	attributes := a.attributes(plainDescription, plainValidators...)
	attributes["id"] = schema.StringAttribute{
		Computed:            true,
		MarkdownDescription: "Astra ID of the credential.",
		PlanModifiers:       []planmodifier.String{attrs.KeepUnlessChanged()},
	}
	attributes["name"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Name of the credential, 1 to 127 printable ASCII characters. Required to create a " +
			"credential; an imported credential may leave it out and keeps its name. Updated in place (which " +
			"needs the " + a.what + ": the API replaces the whole credential).",
		Validators:    []validator.String{validate.ResourceName(127)},
		PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
	}
	attributes["metadata"] = attrs.MetadataSchema(append(append([]string{"name"}, a.rotatedBy()...), alsoRotatedBy...)...)
	return attributes
}

// validateWriteOnly checks the write-only argument in ValidateConfig: write-only values
// never reach attribute validators of an old CLI's plan, and an old CLI cannot send them at
// all. check (nil: none) returns the error for a bad value, which never quotes it.
func (a secretArgument) validateWriteOnly(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse,
	summary string, check func(string) error) {
	var wo types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(a.wo), &wo)...)
	if resp.Diagnostics.HasError() || wo.IsNull() {
		return
	}
	if !req.ClientCapabilities.WriteOnlyAttributesAllowed {
		writeOnlyNeedsNewerCLI(&resp.Diagnostics, a.wo, "set `"+a.plain+"` instead (it is marked "+
			"sensitive, so it never shows in plans or logs, but it is stored in state), or upgrade the CLI.")
		return
	}
	if wo.IsUnknown() || check == nil {
		return
	}
	if err := check(wo.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root(a.wo), summary, err.Error())
	}
}

// secretText is the secret a create or rotation sends: the plain argument from the plan,
// or the write-only one, which exists only in the configuration.
func secretText(plain, wo types.String) (string, bool) {
	if !plain.IsNull() && !plain.IsUnknown() {
		return plain.ValueString(), true
	}
	if !wo.IsNull() && !wo.IsUnknown() {
		return wo.ValueString(), true
	}
	return "", false
}

// noSecret is the error of an apply that has neither secret argument (the plan checks
// should have refused it).
func (a secretArgument) noSecret(diags *diag.Diagnostics) {
	diags.AddError("No "+a.what, "Neither "+a.plain+" nor "+a.wo+" holds a value at apply time. Set exactly one of them.")
}

// failedAttr is the argument a bad secret came from, for the error: the plain one when set.
func (a secretArgument) failedAttr(plain types.String) path.Path {
	if plain.IsNull() {
		return path.Root(a.wo)
	}
	return path.Root(a.plain)
}

// credentialPlanRules are what a credential's plan needs and the schema cannot say.
type credentialPlanRules struct {
	typeName string // set by newCredentialResource
	secret   secretArgument
	// requiredToCreate are arguments a new credential needs (besides the secret) and an
	// imported one may leave out: they are read back, or kept as Astra Control holds them.
	requiredToCreate []string
	// sentWithSecret are arguments that go into the key store with the secret (an S3 access
	// key ID): a rotation needs them, and changing one sends the secret again.
	sentWithSecret []string
}

// modifyPlan enforces the rules: a new credential needs its required arguments and the
// secret; a rotation needs the arguments sent with the secret; a rename (the PUT replaces
// the whole credential) or a change of an argument sent with the secret needs the secret.
// An imported credential may leave the secret out: Astra Control never returns it, so it
// cannot be generated, and leaving it out keeps the one Astra Control holds.
func (rules credentialPlanRules) modifyPlan(ctx context.Context, req knownanswers.PlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	configNull := func(name string) bool {
		var v types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &v)...)
		return v.IsNull()
	}
	hasSecret := !configNull(rules.secret.plain) || !configNull(rules.secret.wo)
	if resp.Diagnostics.HasError() {
		return
	}
	missing := func(name string) {
		resp.Diagnostics.AddAttributeError(path.Root(name), "Missing "+name,
			"A new "+rules.typeName+" needs `"+name+"`. Only a credential imported from Astra Control may leave it out.")
	}
	if req.State.Raw.IsNull() {
		for _, name := range rules.requiredToCreate {
			if configNull(name) {
				missing(name)
			}
		}
		for _, name := range rules.sentWithSecret {
			if configNull(name) {
				missing(name)
			}
		}
		if !hasSecret {
			resp.Diagnostics.AddAttributeError(path.Root(rules.secret.plain), "Missing "+rules.secret.what, rules.secret.howToSet+
				" Only a credential imported from Astra Control may leave both out: it keeps the "+rules.secret.what+" Astra Control holds.")
		}
		return
	}
	if hasSecret {
		for _, name := range rules.sentWithSecret {
			if configNull(name) {
				resp.Diagnostics.AddAttributeError(path.Root(name), "Missing "+name,
					"Rotating the "+rules.secret.what+" sends the whole key store again, which holds `"+name+"`: set it too.")
			}
		}
		return
	}
	changed := func(name string) bool {
		var planned, prior types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &prior)...)
		return !planned.IsUnknown() && !planned.IsNull() && !planned.Equal(prior)
	}
	if changed("name") {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Renaming needs the "+rules.secret.what,
			"Astra Control replaces the whole credential on update and never returns its "+rules.secret.what+", so a rename "+
				"must send it again. "+rules.secret.howToSet)
	}
	for _, name := range rules.sentWithSecret {
		if changed(name) {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Changing "+name+" needs the "+rules.secret.what,
				"`"+name+"` is stored with the "+rules.secret.what+" and Astra Control never returns either, so a change "+
					"must send both. "+rules.secret.howToSet)
		}
	}
}

// leftConfiguration handles an update that has nothing to send: no secret (the argument
// was removed; modifyPlan refused a rename without one, and Astra Control keeps what it
// holds), or neither a rename nor a new secret (only the casing of an argument, say). Only
// state changes, without a request. It reports whether it handled the update.
func (rules credentialPlanRules) leftConfiguration(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) bool {
	var plain, wo types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(rules.secret.plain), &plain)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(rules.secret.wo), &wo)...)
	_, hasSecret := secretText(plain, wo)
	send := false
	for _, name := range append(append([]string{"name"}, rules.secret.rotatedBy()...), rules.sentWithSecret...) {
		var planned, prior types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &prior)...)
		send = send || !planned.Equal(prior)
	}
	if resp.Diagnostics.HasError() || (hasSecret && send) {
		return resp.Diagnostics.HasError()
	}
	resp.State.Raw = req.State.Raw.Copy()
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
	return true
}

// prepareCredential reads the plan into plan and builds the POST/PUT body with build from
// it and from the configuration (which alone holds a write-only secret).
func prepareCredential[M any](ctx context.Context, h *clientHolder, planned tfsdk.Plan, config tfsdk.Config, plan *M,
	build func(plan, cfg M, diags *diag.Diagnostics) (astra.CredentialCreate, bool), diags *diag.Diagnostics) (*astra.Client, astra.CredentialCreate, bool) {
	var cfg M
	diags.Append(planGet(ctx, planned, plan)...)
	diags.Append(configGet(ctx, config, &cfg)...)
	client := h.client(diags)
	if diags.HasError() {
		return nil, astra.CredentialCreate{}, false
	}
	body, ok := build(*plan, cfg, diags)
	return client, body, ok
}

// createCredential sends the POST of a credential resource; a lost answer is resolved by
// looking for the credential by name (createdOrAdopted). nil when it added an error.
func (h *clientHolder) createCredential(ctx context.Context, client *astra.Client, body astra.CredentialCreate, what string,
	fields map[string]string, diags *diag.Diagnostics) *astra.Credential {
	sent := time.Now()
	cred, err := client.CreateCredential(ctx, body)
	if astra.IsConflict(err) && astra.ProblemNumber(err) == problemKubeconfigExists {
		addExists(diags, "A credential already reaches this cluster", "astra_kubeconfig_credential",
			existingKubeconfigCredential(ctx, client, body),
			"the cluster this kubeconfig reaches is in Astra Control already, with another credential: the astra_clusters "+
				"data source shows the cluster, and its credential_id is the credential to import", err)
		return nil
	}
	return createdOrAdopted(ctx, diags, what+" "+body.Name, "Cannot create the "+what, fields, cred, err,
		lostCreate[astra.Credential]{sent: sent, claims: h.claims(), stamp: credentialStamp, settle: client.RequestTimeout(),
			find: func(ctx context.Context) (*astra.Credential, error) { return client.FindCredential(ctx, body.Name) }})
}

// rotateCredential replaces credential id's content with body in one conditional PUT
// (updateFromFreshCopy): a fresh GET of the credential itself (never a listing), the plan
// applied to what it returned (the labels the service set are kept, members this client
// does not model sent back unchanged, the name as read unless the plan renames it), then
// the PUT with If-Match; a concurrent write re-reads and re-applies. The key store, which
// the service never returns, is always sent. nil when it added an error.
func rotateCredential(ctx context.Context, client *astra.Client, id string, body astra.CredentialCreate, renamed bool, what string,
	fields map[string]string, diags *diag.Diagnostics) *astra.Credential {
	return updateFromFreshCopy(ctx, diags, client, what, id, fields,
		func(ctx context.Context) (*astra.Credential, error) { return client.GetCredential(ctx, id) }, nil,
		func(ctx context.Context, current *astra.Credential) (*astra.Credential, error) {
			fresh := body
			if !renamed {
				fresh.Name = current.Name
			}
			fresh.Labels = mergeCredentialLabels(current.Metadata.Labels, body.Labels)
			fresh.Extra = current.Extra // what a newer Astra Control stores, sent back unchanged
			return client.UpdateCredential(ctx, id, fresh)
		})
}

// readCredential refreshes a credential resource; nil when it is gone (removed from state)
// or an error was added.
func (h *clientHolder) readCredential(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse, typeName, what string) *astra.Credential {
	id := stateID(ctx, req.State, &resp.Diagnostics)
	client := h.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return nil
	}
	return readOrForget(ctx, resp, typeName, id.ValueString(), "the "+what,
		func() (*astra.Credential, error) { return client.GetCredential(ctx, id.ValueString()) }, nil)
}

// deleteCredential deletes the credential in state; one already gone is no error.
func (h *clientHolder) deleteCredential(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse, what string) {
	id := stateID(ctx, req.State, &resp.Diagnostics)
	client := h.client(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := client.DeleteCredential(ctx, id.ValueString()); err != nil && !astra.IsNotFound(err) {
		addAPIError(&resp.Diagnostics, "Cannot delete the "+what, err, nil)
	}
}

// credentialKind is what a credential resource manages, for the error of an import of
// another kind of credential.
type credentialKind struct {
	typeName string // astra_kubeconfig_credential
	kind     string // "a kubeconfig credential"
	accepts  string // `credentials of key type "kubeconfig"`
}

// recordCredential writes the model from converts the service's answer to state; m holds
// the prior model (the plan, or the state) and then what was recorded. A credential of
// another kind (an import of the wrong ID) is an error saying which kind it is.
func recordCredential[M any](ctx context.Context, m *M, cred *astra.Credential, from func(*astra.Credential, M) (M, error),
	k credentialKind, state *tfsdk.State, diags *diag.Diagnostics) {
	out, err := from(cred, *m)
	if err != nil {
		diags.AddError("Not "+k.kind, "Credential "+cred.ID+" has key type \""+cred.KeyType+"\"; "+k.typeName+" manages only "+
			k.accepts+". Import the ID of "+k.kind+" instead.")
		return
	}
	*m = out
	diags.Append(setState(ctx, state, m)...)
}

// credentialResource is the create, read, update, delete and import every credential
// resource shares, over its model M; the resource adds its Metadata, Schema and
// ValidateConfig.
type credentialResource[M any] struct {
	clientHolder
	spec credentialSpec[M]
}

// newCredentialResource is the shared part of a credential resource.
func newCredentialResource[M any](spec credentialSpec[M]) credentialResource[M] {
	spec.rules.typeName = spec.kind.typeName
	return credentialResource[M]{spec: spec}
}

// credentialSpec is what tells the credential resources apart.
type credentialSpec[M any] struct {
	kind   credentialKind
	what   string // "S3 credential", in errors
	rules  credentialPlanRules
	fields map[string]string // the API's invalidFields names to attributes
	// body builds the POST/PUT body from the plan and the configuration (which alone holds
	// a write-only secret); from converts the service's answer onto the prior model.
	body func(plan, cfg M, diags *diag.Diagnostics) (astra.CredentialCreate, bool)
	from func(c *astra.Credential, prior M) (M, error)
	// labels are those from reads: the only ones its answers keep (answerOf).
	labels []string
	id     func(M) string
	// written, when set, notes in private state what a create or update just sent.
	written func(ctx context.Context, private privateKeys, body astra.CredentialCreate, diags *diag.Diagnostics)
}

// CheckPlan applies the resource's plan rules (knownanswers.PlanChecker: the framework's
// ModifyPlan and the known answers both call it); they only add diagnostics.
func (r *credentialResource[M]) CheckPlan(ctx context.Context, req knownanswers.PlanRequest) diag.Diagnostics {
	resp := &resource.ModifyPlanResponse{Plan: req.Plan}
	r.spec.rules.modifyPlan(ctx, req, resp)
	return resp.Diagnostics
}

func (r *credentialResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, r.spec.body, &resp.Diagnostics)
	if !ok {
		return
	}
	if cred := r.createCredential(ctx, client, body, r.spec.what, r.spec.fields, &resp.Diagnostics); cred != nil {
		r.recordAnswer(ctx, &plan, cred, &resp.State, resp.Private, &resp.Diagnostics)
		r.noteWritten(ctx, resp.Private, body, &resp.Diagnostics)
	}
}

func (r *credentialResource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(stateGet(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cred := r.readCredential(ctx, req, resp, r.spec.kind.typeName, r.spec.what); cred != nil {
		r.recordAnswer(ctx, &state, cred, &resp.State, resp.Private, &resp.Diagnostics)
	}
}

// Update rotates the secret, renames, or both, in one PUT; with nothing to send, it
// changes state only.
func (r *credentialResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.spec.rules.leftConfiguration(ctx, req, resp) {
		return
	}
	var plan M
	client, body, ok := prepareCredential(ctx, &r.clientHolder, req.Plan, req.Config, &plan, r.spec.body, &resp.Diagnostics)
	if !ok {
		return
	}
	renamed, d := attrs.MayChange(ctx, req.State, req.Plan, req.Config, "name")
	resp.Diagnostics.Append(d...)
	cred := rotateCredential(ctx, client, r.spec.id(plan), body, renamed, r.spec.what, r.spec.fields, &resp.Diagnostics)
	if cred == nil {
		return
	}
	r.recordAnswer(ctx, &plan, cred, &resp.State, resp.Private, &resp.Diagnostics)
	r.noteWritten(ctx, resp.Private, body, &resp.Diagnostics)
	resp.Diagnostics.Append(recordPlanned(req.Plan, &resp.State)...)
}

func (r *credentialResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.deleteCredential(ctx, req, resp, r.spec.what)
}

func (r *credentialResource[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// recordAnswer writes the model converted from the service's answer to state; m holds the
// prior model (the plan, or the state) and then what was recorded.
func (r *credentialResource[M]) recordAnswer(ctx context.Context, m *M, cred *astra.Credential, state *tfsdk.State,
	private privateKeys, diags *diag.Diagnostics) {
	answer := r.answerOf(cred)
	recordCredential(ctx, m, answer, r.spec.from, r.spec.kind, state, diags)
	knownanswers.RecordAnswer(ctx, private, answer, *state, diags)
}

// answerOf is the part of cred the state is made of: the spec's from converts it, and the
// read seal covers it, so a read whose answer is the same answers with the state. It is
// cred with only the labels from reads and none of the members this client does not model.
// The service adds read-only labels once a cluster uses a credential (clusterID,
// clusterName): a seal over them no longer matched after the cluster's create, and every
// read of the credential went to the framework until the next apply.
func (r *credentialResource[M]) answerOf(cred *astra.Credential) *astra.Credential {
	out := *cred
	out.Extra, out.Metadata.Labels = nil, nil
	for _, l := range cred.Metadata.Labels {
		if slices.Contains(r.spec.labels, l.Name) {
			out.Metadata.Labels = append(out.Metadata.Labels, l)
		}
	}
	return &out
}

// noteWritten runs the spec's written hook, if any.
func (r *credentialResource[M]) noteWritten(ctx context.Context, private privateKeys, body astra.CredentialCreate, diags *diag.Diagnostics) {
	if r.spec.written != nil {
		r.spec.written(ctx, private, body, diags)
	}
}

// ReadAnswer is the object Read converts (knownanswers.AnswerReader).
func (r *credentialResource[M]) ReadAnswer(ctx context.Context, ids map[string]string) (any, bool) {
	return answerOfBytes(ctx, r, ids)
}

// ReadAnswerBytes is that object as the service sent it (knownanswers.AnswerBytesReader).
func (r *credentialResource[M]) ReadAnswerBytes(ctx context.Context, ids map[string]string) ([]byte, bool) {
	return readBytesWith(&r.clientHolder, func(c *astra.Client) (json.RawMessage, error) { return c.GetCredentialJSON(ctx, ids["id"]) })
}

// AnswerFrom decodes it (knownanswers.AnswerBytesReader).
func (r *credentialResource[M]) AnswerFrom(_ context.Context, raw []byte) (any, bool) {
	answer, _ := answerFrom[astra.Credential](&r.clientHolder, raw, nil)
	cred, ok := answer.(*astra.Credential)
	if !ok {
		return nil, false
	}
	return r.answerOf(cred), true
}

func credentialStamp(c *astra.Credential) objectStamp {
	return objectStamp{Kind: "credential", ID: c.ID, Created: c.Metadata.CreationTimestamp}
}

// writeOnlyNeedsNewerCLI is the error of a write-only argument set under a CLI that cannot
// send one (Terraform before 1.11); instead says what to do.
func writeOnlyNeedsNewerCLI(diags *diag.Diagnostics, wo, instead string) {
	diags.AddAttributeError(path.Root(wo), "Write-only arguments need a newer CLI",
		wo+" is a write-only argument, which needs Terraform 1.11 or later or OpenTofu 1.11 or later. "+
			"This CLI does not support them: "+instead)
}
