package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// WithScriptedCreates is p (made by New) serving its resources with the Create of each one
// the identity wrapper holds replaced by create, the wrapper (identity, replay) and the
// resource's private keys kept. Only the differential test of internal/knownanswers uses
// it: it runs one Create under the known answers and under the bare framework.
func WithScriptedCreates(p provider.Provider, create func(context.Context, resource.CreateRequest, *resource.CreateResponse)) provider.Provider {
	astraP, ok := p.(*astraProvider)
	if !ok {
		panic("WithScriptedCreates takes a provider made by New")
	}
	scripted := &scriptedProvider{astraProvider: astraP}
	for _, factory := range astraP.Resources(context.Background()) {
		scripted.resources = append(scripted.resources, func() resource.Resource {
			r := factory()
			id, ok := r.(*identified)
			if !ok {
				return r
			}
			var keys []string
			if writer, ok := id.Resource.(knownanswers.PrivateKeyWriter); ok {
				keys = writer.PrivateKeys()
			}
			return &identified{Resource: &scriptedCreate{Resource: id.Resource, create: create, keys: keys}}
		})
	}
	return scripted
}

type scriptedProvider struct {
	*astraProvider
	resources []func() resource.Resource
}

func (p *scriptedProvider) Resources(context.Context) []func() resource.Resource { return p.resources }

// scriptedCreate is a resource whose Create is a script's; it hides the resource's other
// optional methods (configuration, plan checks), which a scripted Create does not need.
type scriptedCreate struct {
	resource.Resource
	create func(context.Context, resource.CreateRequest, *resource.CreateResponse)
	keys   []string
}

func (r *scriptedCreate) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.create(ctx, req, resp)
}

func (r *scriptedCreate) PrivateKeys() []string { return r.keys }
