package astrasim

import (
	"net/http"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

func (s *Sim) listStorageClasses(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	var items []map[string]any
	for _, sc := range s.st.storageClassesOf(c.ID) {
		items = append(items, s.renderStorageClass(sc))
	}
	return s.list(q, apispec.StorageClass, items)
}

func (s *Sim) getStorageClass(q *request) *reply {
	c, p := s.lookupCluster(q)
	if p != nil {
		return fail(p)
	}
	sc := s.st.StorageClasses[q.params["storageClass_id"]]
	if sc == nil || sc.ClusterID != c.ID {
		return fail(problem(2))
	}
	return answer(http.StatusOK, apispec.StorageClass, apispec.GetResponse, s.newest[apispec.StorageClass], s.renderStorageClass(sc))
}
