package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

// Connector capabilities of the cluster API. relayV1 (1.5, 1.6) became connectorV2 in 1.7.
const (
	capabilityRelayV1     = "relayV1"
	capabilityConnectorV2 = "connectorV2"
)

// connectorCapabilities is every value some cluster API version accepts; which version
// accepts which is checked against api_version at plan time (clusterVersionProblems).
var connectorCapabilities = []string{"neptuneV1", "proxyV1", capabilityRelayV1, capabilityConnectorV2, "watcherV1"}

// clusterTypes are the values of cluster_type (cluster API 1.7).
var clusterTypes = []string{"aks", "anthos", "eks", "gke", "kubernetes", "openshift", "rke", "tanzu"}

// Waits when `timeouts` does not set them.
var clusterTimeouts = attrs.TimeoutDefaults{Create: 30 * time.Minute, Update: 30 * time.Minute, Delete: 20 * time.Minute}

// clusterPutArgs are the arguments whose change makes an update PUT the cluster; any other
// update (wait_for_running, timeouts) sends nothing.
var clusterPutArgs = []string{"name", "credential_id", "private_route_id", "connector_capabilities", "acc_host", "cluster_type", "labels"}

// clusterRediscoveredBy is what can change what Astra Control discovers on the cluster
// (versions, namespaces, state, protection, Trident): only a new credential, which may
// reach another Kubernetes cluster and makes the service collect it again.
var clusterRediscoveredBy = []string{"credential_id"}

// clusterAttributes are astra_cluster's attributes except `timeouts` (which needs a
// context). The astra_cluster data source derives its schema from them with
// attrs.ComputedForDataSource(clusterAttributes(), "wait_for_running").
func clusterAttributes() map[string]schema.Attribute {
	args := map[string]schema.Attribute{
		"cloud_id": schema.StringAttribute{
			Required:            true,
			MarkdownDescription: "ID of the cloud the cluster is added to (for a kubeconfig cluster, the `private` cloud)." + forcesReplacement,
			Validators:          []validator.String{validate.UUID()},
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"name": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Name of the cluster in Astra Control, 1 to 63 printable ASCII characters without markup, " +
				"path separators or SQL metacharacters. Defaults to the Kubernetes name of the cluster (the kubeconfig's " +
				"cluster name)." + updatedInPlace + keepsServiceValue,
			Validators:    []validator.String{validate.ResourceName(63)},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"credential_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "ID of the kubeconfig credential Astra Control uses to reach the cluster (for example " +
				"`astra_kubeconfig_credential.x.id`). Required to create a cluster unless `private_route_id` and a " +
				"relay-capable connector capability (`relayV1` up to `api_version` 1.6, `connectorV2` from 1.7) are both set, " +
				"and not allowed together with a relay-capable capability. A new value makes Astra Control collect the " +
				"cluster again, so the plan shows what it discovers (versions, namespaces, state, protection, Trident) as " +
				"known after apply." + updatedInPlace + " Never forces a new resource." + keepsServiceValue,
			Validators:    []validator.String{validate.UUID()},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"private_route_id": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Location ID of the Astra Connector that reaches a private cluster, 1 to 255 characters. " +
				"Needs `api_version` 1.4 or later." + updatedInPlace + " Never forces a new resource." + keepsServiceValue,
			Validators:    []validator.String{stringvalidator.LengthBetween(1, 255)},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged()},
		},
		"connector_capabilities": schema.SetAttribute{
			Optional:    true,
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "Capabilities of the connector associated with the cluster. With `api_version` 1.5 and 1.6: " +
				"`neptuneV1`, `proxyV1`, `relayV1`, `watcherV1`; from 1.7: `neptuneV1`, `proxyV1`, `connectorV2`, `watcherV1`. " +
				"Needs `api_version` 1.5 or later. When never set, Astra Control assumes `proxyV1`." + updatedInPlace +
				" Only the empty set (`[]`) in place of capabilities the cluster has forces a new resource: the API cannot unset them." +
				keepsServiceValue,
			Validators:    []validator.Set{setvalidator.ValueStringsAre(stringvalidator.OneOf(connectorCapabilities...))},
			PlanModifiers: []planmodifier.Set{attrs.KeepUnlessChanged(), replaceWhenSetEmptied()},
		},
		"acc_host": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Whether this cluster hosts the Astra Control Center instance being accessed. " +
				"Astra Control only ever reports `true`; an unreported value reads as `false`. Setting it to `true` is " +
				"updated in place; only `false` on a cluster that reports `true` forces a new resource: the API cannot unset it." +
				keepsServiceValue,
			PlanModifiers: []planmodifier.Bool{attrs.KeepUnlessChanged(), replaceWhenTrueRemoved()},
		},
		"cluster_type": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "Kind of cluster: `gke`, `aks`, `eks`, `rke`, `tanzu`, `openshift`, `anthos` or `kubernetes`. " +
				"Astra Control detects it; setting it (sent on create and update) needs `api_version` 1.7 or later." +
				updatedInPlace + " Never forces a new resource." + keepsServiceValue,
			Validators:    []validator.String{stringvalidator.OneOf(clusterTypes...)},
			PlanModifiers: []planmodifier.String{attrs.KeepUnlessChanged(clusterRediscoveredBy...)},
		},
		"labels": attrs.LabelsSchema(),
		"wait_for_running": schema.BoolAttribute{
			Optional: true,
			Computed: true,
			Default:  booldefault.StaticBool(true),
			MarkdownDescription: "Whether create (and an update of `credential_id`) waits, within `timeouts`, until `state` is " +
				"`running`. Defaults to `true`. Set it to `false` for a cluster registered through an Astra Connector " +
				"(`private_route_id` with a relay-capable capability and no credential), which stays `pending` until its " +
				"connector runs. Changing it sends nothing to Astra Control.",
		},
	}
	for name, a := range clusterComputedAttributes(func(string) []string { return clusterRediscoveredBy }, clusterPutArgs) {
		if _, isArg := args[name]; !isArg {
			args[name] = a
		}
	}
	return args
}

// The cluster API cannot unset connectorCapabilities (a PUT of [] keeps them) and has no
// accHost "false". These arguments are Optional+Computed, so leaving them out keeps the
// service's value; only an explicit empty set or false, which no PUT can apply, replaces
// the cluster instead of planning an update that could not happen.

const unsetReplaces = "A value the API cannot apply in place (no capabilities, or acc_host false once true) forces a new resource: the API cannot unset it."

// replaceWhenSetEmptied runs after the keep modifier, so a left-out set is the prior one here.
func replaceWhenSetEmptied() planmodifier.Set {
	return setplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.SetRequest, resp *setplanmodifier.RequiresReplaceIfFuncResponse) {
		hadValues := isSet(req.StateValue) && len(req.StateValue.Elements()) > 0
		emptied := req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && len(req.PlanValue.Elements()) == 0)
		resp.RequiresReplace = hadValues && emptied
	}, unsetReplaces, unsetReplaces)
}

// replaceWhenTrueRemoved runs after the keep modifier, so a left-out acc_host is the prior one here.
func replaceWhenTrueRemoved() planmodifier.Bool {
	return boolplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.BoolRequest, resp *boolplanmodifier.RequiresReplaceIfFuncResponse) {
		wasTrue := isSet(req.StateValue) && req.StateValue.ValueBool()
		resp.RequiresReplace = wasTrue && (req.PlanValue.IsNull() || (!req.PlanValue.IsUnknown() && !req.PlanValue.ValueBool()))
	}, unsetReplaces, unsetReplaces)
}
