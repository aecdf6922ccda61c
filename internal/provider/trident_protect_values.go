package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

// The rendering as Terraform values. A manifest's object is a tree of maps, lists,
// strings and booleans whose shape differs from kind to kind (and from one list item to the
// next: an includedNamespaces entry may or may not have a labelSelector), so it becomes an
// object of objects and tuples, the types yamldecode gives the same YAML: kubernetes_manifest
// takes either.

// tridentProtectObjects is the value of the `objects` attribute: an object whose attribute
// names are the manifests' keys and whose values are the manifests' objects.
func tridentProtectObjects(ctx context.Context, manifests []tridentprotect.Manifest) (types.Dynamic, error) {
	objects := make(map[string]any, len(manifests))
	for _, m := range manifests {
		objects[m.Key()] = m.Object
	}
	v, err := terraformValue(ctx, objects)
	if err != nil {
		return types.DynamicNull(), err
	}
	return types.DynamicValue(v), nil
}

// terraformValue converts a manifest tree: map[string]any to an object, []any to a
// tuple, string and bool to themselves. Any other type is a renderer bug.
func terraformValue(ctx context.Context, v any) (attr.Value, error) {
	switch x := v.(type) {
	case string:
		return types.StringValue(x), nil
	case bool:
		return types.BoolValue(x), nil
	case []any:
		elems := make([]attr.Value, len(x))
		elemTypes := make([]attr.Type, len(x))
		for i, e := range x {
			ev, err := terraformValue(ctx, e)
			if err != nil {
				return nil, fmt.Errorf("[%d]%w", i, err)
			}
			elems[i], elemTypes[i] = ev, ev.Type(ctx)
		}
		t, diags := types.TupleValue(elemTypes, elems)
		return t, diagnosticsError(diags)
	case map[string]any:
		members := make(map[string]attr.Value, len(x))
		attrTypes := make(map[string]attr.Type, len(x))
		for k, e := range x {
			ev, err := terraformValue(ctx, e)
			if err != nil {
				return nil, fmt.Errorf(".%s%w", k, err)
			}
			members[k], attrTypes[k] = ev, ev.Type(ctx)
		}
		o, diags := types.ObjectValue(attrTypes, members)
		return o, diagnosticsError(diags)
	}
	return nil, fmt.Errorf(": a value of type %T has no Terraform type here", v)
}

// tridentProtectManifestValues are the items of the `manifests` attribute.
type tridentProtectManifestValues struct {
	Key        types.String `tfsdk:"key"`
	Kind       types.String `tfsdk:"kind"`
	Name       types.String `tfsdk:"name"`
	Namespace  types.String `tfsdk:"namespace"`
	SourceKind types.String `tfsdk:"source_kind"`
	SourceID   types.String `tfsdk:"source_id"`
	SourceName types.String `tfsdk:"source_name"`
	YAML       types.String `tfsdk:"yaml"`
}

func tridentProtectManifestItems(in []tridentprotect.Manifest) []tridentProtectManifestValues {
	out := make([]tridentProtectManifestValues, len(in))
	for i, m := range in {
		out[i] = tridentProtectManifestValues{
			Key: types.StringValue(m.Key()), Kind: types.StringValue(m.Kind), Name: types.StringValue(m.Name),
			Namespace: types.StringValue(m.Namespace), SourceKind: types.StringValue(m.Source.Kind),
			SourceID: types.StringValue(m.Source.ID), SourceName: types.StringValue(m.Source.Name), YAML: types.StringValue(m.YAML),
		}
	}
	return out
}

// tridentProtectSecretValues are the items of the `secrets` attribute: where a Secret goes
// and which keys it holds, never a value.
type tridentProtectSecretValues struct {
	Name           types.String `tfsdk:"name"`
	Namespace      types.String `tfsdk:"namespace"`
	Keys           types.List   `tfsdk:"keys"`
	Purpose        types.String `tfsdk:"purpose"`
	BucketID       types.String `tfsdk:"bucket_id"`
	BucketName     types.String `tfsdk:"bucket_name"`
	CredentialID   types.String `tfsdk:"credential_id"`
	CredentialName types.String `tfsdk:"credential_name"`
}

func tridentProtectSecretItems(in []tridentprotect.Secret) []tridentProtectSecretValues {
	out := make([]tridentProtectSecretValues, len(in))
	for i, s := range in {
		keys := make([]attr.Value, len(s.Keys))
		for j, k := range s.Keys {
			keys[j] = types.StringValue(k)
		}
		out[i] = tridentProtectSecretValues{
			Name: types.StringValue(s.Name), Namespace: types.StringValue(s.Namespace),
			Keys: types.ListValueMust(types.StringType, keys), Purpose: types.StringValue(s.Purpose),
			// The data mover password Secret stands for no bucket: null, not "".
			BucketID: attrs.OptionalString(s.BucketID), BucketName: attrs.OptionalString(s.BucketName),
			CredentialID: attrs.OptionalString(s.CredentialID), CredentialName: attrs.OptionalString(s.CredentialName),
		}
	}
	return out
}

// tridentProtectWarningValues are the items of the `warnings` attribute.
type tridentProtectWarningValues struct {
	Object  types.String `tfsdk:"object"`
	Message types.String `tfsdk:"message"`
}

func tridentProtectWarningItems(in []tridentprotect.Warning) []tridentProtectWarningValues {
	out := make([]tridentProtectWarningValues, len(in))
	for i, w := range in {
		out[i] = tridentProtectWarningValues{Object: types.StringValue(w.Object), Message: types.StringValue(w.Message)}
	}
	return out
}

// diagnosticsError is the errors of diags as one error (nil without errors): building a
// value from values whose types were just taken cannot fail short of a framework change.
func diagnosticsError(diags diag.Diagnostics) error {
	if !diags.HasError() {
		return nil
	}
	return fmt.Errorf(": %s: %s", diags.Errors()[0].Summary(), diags.Errors()[0].Detail())
}

// setRendering fills the computed attributes.
func (m *tridentProtectManifestsModel) setRendering(ctx context.Context, defaultBucketID string, r tridentprotect.Rendering) diag.Diagnostics {
	var diags, d diag.Diagnostics
	if attrs.StringOrEmpty(m.ProtectNamespace) == "" {
		m.ProtectNamespace = types.StringValue(tridentprotect.DefaultProtectNamespace)
	}
	m.DefaultBucketID = attrs.OptionalString(defaultBucketID)
	m.YAML = types.StringValue(r.YAML)
	m.TridentProtectRelease = types.StringValue(tridentprotect.DocsRelease)
	m.Manifests, d = objectList(ctx, tridentProtectManifestAttributes(), tridentProtectManifestItems(r.Manifests))
	diags.Append(d...)
	m.Secrets, d = objectList(ctx, tridentProtectSecretAttributes(), tridentProtectSecretItems(r.Secrets))
	diags.Append(d...)
	m.Warnings, d = objectList(ctx, tridentProtectWarningAttributes(), tridentProtectWarningItems(r.Warnings))
	diags.Append(d...)
	objects, err := tridentProtectObjects(ctx, r.Manifests)
	if err != nil {
		diags.AddError("Cannot convert the Trident protect resources", "objects"+err.Error()+". This is a bug in the provider; please report it.")
	}
	m.Objects = objects
	return diags
}

// warningsByObject joins the warnings of each object into one, in the order the objects
// first appear: the CLIs fold warnings of one summary into "and N more similar warnings",
// which would hide all but an object's first message.
func warningsByObject(in []tridentprotect.Warning) []tridentprotect.Warning {
	var out []tridentprotect.Warning
	at := map[string]int{}
	for _, w := range in {
		if i, seen := at[w.Object]; seen {
			out[i].Message += "\n\n" + w.Message
			continue
		}
		at[w.Object] = len(out)
		out = append(out, w)
	}
	return out
}
