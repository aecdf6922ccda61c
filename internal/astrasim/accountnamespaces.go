package astrasim

import (
	"net/http"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// GET /topology/v1/namespaces and /topology/v1/namespaces/{namespace_id}: the namespaces of
// every managed cluster, account-wide. NetApp's published documents have both paths (22.11
// to 24.02, with include, limit and filter on the list; the namespace examples' self links
// point at them), but the trimmed documents the simulator is built from do not, so they are
// served outside them (offSpecRoutes): their items are still the namespace resource of the
// release, fitted to its schema. NetApp's client needs the list: astraSDK's getNamespaces
// reads it for actoolkit's "list namespaces" and for the choices of "manage app", which
// therefore cannot run without it (scripts/toolkit-check.sh). Only managed clusters
// have discovered namespaces, as on the per-cluster path.
const (
	namespacesRoute = "/topology/v1/namespaces"
	namespaceRoute  = "/topology/v1/namespaces/{namespace_id}"
)

func (s *Sim) listAccountNamespaces(q *request) *reply {
	var items []map[string]any
	for _, c := range s.st.sortedClusters((*cluster).managed) {
		for _, name := range c.Namespaces {
			items = append(items, s.renderNamespace(c, name))
		}
	}
	return s.list(q, apispec.Namespace, items)
}

func (s *Sim) getAccountNamespace(q *request) *reply {
	for _, c := range s.st.sortedClusters((*cluster).managed) {
		for _, name := range c.Namespaces {
			if namespaceID(c, name) == q.params["namespace_id"] {
				return answer(http.StatusOK, apispec.Namespace, apispec.GetResponse, s.newest[apispec.Namespace], s.renderNamespace(c, name))
			}
		}
	}
	return fail(notFound(q))
}
