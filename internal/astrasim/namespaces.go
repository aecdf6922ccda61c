package astrasim

import (
	"net/http"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// namespaceID is a namespace's stable ID, derived from its cluster and name.
func namespaceID(c *cluster, name string) string { return uuid5(c.ID + "/namespaces/" + name) }

// systemType: the namespaces Kubernetes and Trident create for themselves.
func systemType(name string) string {
	switch name {
	case "kube-system", "kube-public", "kube-node-lease":
		return "kubernetes"
	case "trident":
		return "netapp"
	}
	return ""
}

func (s *Sim) renderNamespace(c *cluster, name string) map[string]any {
	id := namespaceID(c, name)
	m := map[string]any{
		"type": "application/astra-namespace", "version": s.newest[apispec.Namespace], "id": id, "name": name,
		"links":          []any{map[string]any{"rel": "self", "href": s.accountPath() + "/topology/v1/managedClusters/" + c.ID + "/namespaces/" + id}},
		"namespaceState": "discovered", "namespaceStateDetails": []any{},
		"kubernetesLabels": []any{map[string]any{"name": "kubernetes.io/metadata.name", "value": name}},
		"kubernetesUID":    uuid5(c.ID + "/uid/" + name), "clusterID": c.ID,
		"metadata": renderMeta(meta{Labels: []label{}, Created: c.Meta.Created, Modified: c.Meta.Created}),
	}
	if extra := s.st.Identity.NamespaceLabels[name]; len(extra) > 0 { // SetNamespaceLabels (identity_api.go)
		m["kubernetesLabels"] = namespaceLabelList(s.st.Identity.namespaceLabels(name))
	}
	putIf(m, "systemType", systemType(name))
	return fitToSchema(s.responseSchema(apispec.Namespace, s.newest[apispec.Namespace]), m)
}

// listNamespaces answers a managed cluster's namespaces (the cluster's, as discovered).
func (s *Sim) listNamespaces(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, name := range c.Namespaces {
		items = append(items, s.renderNamespace(c, name))
	}
	return s.list(q, apispec.Namespace, items)
}

func (s *Sim) getNamespace(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	for _, name := range c.Namespaces {
		if namespaceID(c, name) == q.params["namespace_id"] {
			return answer(http.StatusOK, apispec.Namespace, apispec.GetResponse, s.newest[apispec.Namespace], s.renderNamespace(c, name))
		}
	}
	return fail(notFound(q))
}
