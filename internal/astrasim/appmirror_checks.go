package astrasim

import (
	"fmt"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// The preconditions of an AppMirror POST, each with its problem (research notes §4.12
// "Preconditions" and the catalogue, Appendix A):
//   - stateDesired other than "established": 400/9 (a destinationAppID is outside the
//     POST schema, 400/8: the service makes the destination app);
//   - a sourceAppID naming no app: 400/117; on the app-scoped path, another app than the
//     path's: 409/10;
//   - an app already in a relationship (as source or destination): 409/150 "Replication
//     not supported" (attached to the POST from 23.05; 22.11 answers 409/10); a source app
//     not ready: 409/112;
//   - a destinationClusterID naming no managed cluster: 400/9; the source's own cluster
//     only with appMirror 1.1 and role on every mapping item (same-cluster replication,
//     from 23.07), else 400/9;
//   - either cluster without a managed ONTAP storage backend (storagebackends.go):
//     409/150 (22.11: 409/10) naming the cluster;
//   - namespaceMapping: none, or one item per cluster whose namespaces pair by position,
//     the source item listing the source app's namespaces: else 400/9. Omitted, the
//     destination uses the source's namespace names (the spec);
//   - destination namespaces: ACC-DOCS lets the user pick a new or an existing one and
//     creates a missing one; what happens to an existing namespace's content is unknown.
//     The conservative behaviour: a namespace that already holds a managed app on the
//     destination cluster is refused (409/123 "Namespace unavailable"), as that app would
//     be overwritten; an existing namespace without one is taken, its other content left
//     alone;
//   - the destination's storage class (storageClasses' item for the destination cluster,
//     else the cluster's default) must exist there and be provisioned by Trident (ACC-DOCS:
//     ontap-nas or ontap-san): else 400/118 naming it;
//   - the destination app takes the source app's name (on the source's own cluster, the
//     name and its first destination namespace); an app of that name on the destination
//     cluster: 409/121.
// A cluster that cannot be reached is no precondition: the relationship is accepted and
// stays establishing, healthState critical, until it can be (appmirror_states.go).

// mirrorPlan is what a valid POST creates.
type mirrorPlan struct {
	sourceAppID, destClusterID, destAppName string
	destNamespaces                          []string
	nsMap                                   map[string]string // source namespace -> destination namespace
	mapping                                 []nsMapping
	classes                                 []scChoice
}

// notEligible is "Replication not supported", 409/150 from 23.05, 409/10 before.
func (s *Sim) notEligible(field, reason string) *apiProblem {
	n := 150
	if apispec.CompareReleases(s.opts.Release, "23.05") < 0 {
		n = 10
	}
	return invalidFields(n, fieldReason{field, reason}) // the published detail is pinned: the reason goes here
}

func (s *Sim) planMirror(q *request, b *body) (*mirrorPlan, *apiProblem) {
	if v, _ := b.str("stateDesired"); v != "established" {
		return nil, invalidFields(9, fieldReason{"stateDesired", "a relationship is created with stateDesired established"})
	}
	srcID, _ := b.str("sourceAppID")
	if pathApp := q.params["app_id"]; pathApp != "" && pathApp != srcID {
		return nil, invalidFields(10, fieldReason{"sourceAppID", "the sourceAppID differs from the app in the request URI"})
	}
	src := s.st.Apps[srcID]
	if src == nil {
		return nil, invalidFields(117, fieldReason{"sourceAppID", "no app has this ID"})
	}
	if m := s.st.mirrorOf(src.ID); m != nil {
		return nil, s.notEligible("sourceAppID", "The app already takes part in the replication relationship "+m.ID+".")
	}
	if src.State != "ready" {
		return nil, invalidFields(112, fieldReason{"sourceAppID", "the app is " + src.State + ": replication starts from a ready app"})
	}
	dstID, _ := b.str("destinationClusterID")
	dst := s.st.Clusters[dstID]
	if dst == nil || dst.ManagedState != "managed" {
		return nil, invalidFields(9, fieldReason{"destinationClusterID", "no managed cluster has this ID"})
	}
	srcCluster := s.st.Clusters[src.ClusterID]
	sameCluster := dst.ID == src.ClusterID
	if sameCluster && !hasRoles(b) {
		return nil, invalidFields(9, fieldReason{"destinationClusterID", "replicating to the source's own cluster needs appMirror 1.1 with role on every namespaceMapping and storageClasses item"})
	}
	for _, c := range []*cluster{srcCluster, dst} {
		if reason := s.backendReady(c); reason != "" {
			field := "destinationClusterID"
			if c == srcCluster {
				field = "sourceAppID"
			}
			return nil, s.notEligible(field, reason)
		}
	}
	plan := &mirrorPlan{sourceAppID: src.ID, destClusterID: dst.ID, nsMap: map[string]string{}}
	if p := s.planNamespaces(plan, b, src, dst, sameCluster); p != nil {
		return nil, p
	}
	if p := s.planStorageClasses(plan, b, src, dst); p != nil {
		return nil, p
	}
	plan.destAppName = src.Name
	if sameCluster {
		plan.destAppName = shorten(src.Name+"-"+plan.destNamespaces[0], 63)
	}
	if other := s.appNamed(dst, plan.destAppName, ""); other != nil {
		return nil, appExists(other)
	}
	return plan, nil
}

func hasRoles(b *body) bool {
	for _, key := range []string{"namespaceMapping", "storageClasses"} {
		items, _ := b.fields[key].([]any)
		if len(items) == 0 {
			return false
		}
		for _, it := range items {
			if m, _ := it.(map[string]any); m["role"] == nil {
				return false
			}
		}
	}
	return true
}

// appNamespaces are the namespaces of an app's scope, in order, once each.
func appNamespaces(a *app) []string {
	var out []string
	for _, r := range a.NamespaceScope {
		if !containsString(out, r.Namespace) {
			out = append(out, r.Namespace)
		}
	}
	return out
}

func (s *Sim) planNamespaces(plan *mirrorPlan, b *body, src *app, dst *cluster, sameCluster bool) *apiProblem {
	srcNS := appNamespaces(src)
	items, _ := b.fields["namespaceMapping"].([]any)
	destNS := srcNS
	switch len(items) {
	case 0:
		if sameCluster {
			return invalidFields(9, fieldReason{"namespaceMapping", "replicating to the same cluster needs other namespaces"})
		}
	case 2:
		var srcItem, dstItem map[string]any
		for _, it := range items {
			m, _ := it.(map[string]any)
			role, _ := m["role"].(string)
			switch id, _ := m["clusterID"].(string); {
			case sameCluster && role == "source", !sameCluster && id == src.ClusterID:
				srcItem = m
			case sameCluster && role == "destination", !sameCluster && id == dst.ID:
				dstItem = m
			}
		}
		if srcItem == nil || dstItem == nil {
			return invalidFields(9, fieldReason{"namespaceMapping", "give exactly one item for the source cluster and one for the destination cluster"})
		}
		from, to := stringList(srcItem["namespaces"]), stringList(dstItem["namespaces"])
		if len(from) != len(srcNS) || !sameStrings(from, srcNS) {
			return invalidFields(9, fieldReason{"namespaceMapping", "the source item must list the source app's namespaces: " + strings.Join(srcNS, ", ")})
		}
		if len(to) != len(from) {
			return invalidFields(9, fieldReason{"namespaceMapping", "the two items' namespaces are paired by position: give as many destination namespaces as source ones"})
		}
		srcNS, destNS = from, to
		for _, it := range []map[string]any{srcItem, dstItem} {
			id, _ := it["clusterID"].(string)
			role, _ := it["role"].(string)
			plan.mapping = append(plan.mapping, nsMapping{ClusterID: id, Namespaces: stringList(it["namespaces"]), Role: role})
		}
	default:
		return invalidFields(9, fieldReason{"namespaceMapping", "give no item, or one for each cluster"})
	}
	for i, ns := range destNS {
		if sameCluster && containsString(srcNS, ns) {
			return invalidFields(9, fieldReason{"namespaceMapping", "on the same cluster the destination namespaces must differ from the source's: " + ns})
		}
		if holder := s.managedAppIn(dst, ns); holder != nil {
			return invalidFields(123, fieldReason{"namespaceMapping", fmt.Sprintf("namespace %s of the destination cluster holds the managed app %s (%s): choose a new namespace or unmanage it", ns, holder.Name, holder.ID)})
		}
		plan.nsMap[srcNS[i]] = ns
	}
	plan.destNamespaces = destNS
	return nil
}

// managedAppIn is an app of cluster c whose scope includes namespace ns, or nil.
func (s *Sim) managedAppIn(c *cluster, ns string) *app {
	for _, id := range c.AppIDs {
		a := s.st.Apps[id]
		if a != nil && containsString(appNamespaces(a), ns) {
			return a
		}
	}
	return nil
}

func stringList(v any) []string {
	raw, _ := v.([]any)
	out := make([]string, 0, len(raw))
	for _, x := range raw {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (s *Sim) planStorageClasses(plan *mirrorPlan, b *body, src *app, dst *cluster) *apiProblem {
	items, _ := b.fields["storageClasses"].([]any)
	name := ""
	for i, it := range items {
		m, _ := it.(map[string]any)
		id, _ := m["clusterID"].(string)
		scName, _ := m["storageClassName"].(string)
		role, _ := m["role"].(string)
		if id != src.ClusterID && id != dst.ID {
			return invalidFields(9, fieldReason{fmt.Sprintf("storageClasses[%d].clusterID", i), "name the source or the destination cluster"})
		}
		if id == dst.ID && (role == "destination" || (role == "" && id != src.ClusterID)) {
			name = scName
		}
		plan.classes = append(plan.classes, scChoice{ClusterID: id, StorageClassName: scName, Role: role})
	}
	var chosen *storageClass
	for _, sc := range s.st.storageClassesOf(dst.ID) {
		if (name == "" && sc.ID == dst.DefaultStorageClass) || (name != "" && sc.Name == name) {
			chosen = sc
		}
	}
	switch {
	case chosen == nil && name == "":
		return invalidFields(118, fieldReason{"storageClasses", "the destination cluster has no default storage class: name one"})
	case chosen == nil:
		return invalidFields(118, fieldReason{"storageClasses", "the destination cluster has no storage class " + name})
	case chosen.Provisioner != "csi.trident.netapp.io":
		return invalidFields(118, fieldReason{"storageClasses", "storage class " + chosen.Name + " of the destination cluster is not provisioned by Trident on ONTAP (" + chosen.Provisioner + ")"})
	}
	return nil
}
