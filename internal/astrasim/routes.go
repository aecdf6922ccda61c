package astrasim

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
)

// accountPrefix is the part of every spec path before the route template.
const accountPrefix = "/accounts/{account_id}"

// probeRoute is the reachability probe GET /accounts/{account_id} (not in the trimmed
// spec; the connector installer calls it), counted under this name.
const probeRoute = "/"

// unmatchedRoute is the counter key for paths that match no route.
const unmatchedRoute = "(unmatched)"

type handlerFunc func(s *Sim, q *request) *reply

// route is one path template of the spec with the handler of each method it supports.
type route struct {
	template string
	segments []string
	methods  map[string]handlerFunc
}

// routeTable lists the paths of the published documents the simulator serves, plus the account probe.
func routeTable() []*route {
	table := []struct {
		template string
		methods  map[string]handlerFunc
	}{
		{probeRoute, map[string]handlerFunc{http.MethodGet: (*Sim).getAccount}},
		{"/core/v1/credentials", map[string]handlerFunc{http.MethodGet: (*Sim).listCredentials, http.MethodPost: (*Sim).postCredential}},
		{"/core/v1/credentials/{credential_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getCredential, http.MethodPut: (*Sim).putCredential, http.MethodDelete: (*Sim).deleteCredential}},
		{"/topology/v1/buckets", map[string]handlerFunc{http.MethodGet: (*Sim).listBuckets, http.MethodPost: (*Sim).postBucket}},
		{"/topology/v1/buckets/{bucket_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBucket, http.MethodPut: (*Sim).putBucket, http.MethodDelete: (*Sim).deleteBucket}},
		{"/topology/v1/clouds", map[string]handlerFunc{http.MethodGet: (*Sim).listClouds, http.MethodPost: (*Sim).postCloud}},
		{"/topology/v1/clouds/{cloud_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getCloud, http.MethodPut: (*Sim).putCloud, http.MethodDelete: (*Sim).deleteCloud}},
		{"/topology/v1/clouds/{cloud_id}/clusters", map[string]handlerFunc{http.MethodGet: (*Sim).listClusters, http.MethodPost: (*Sim).postCluster}},
		{"/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getCluster, http.MethodPut: (*Sim).putCluster, http.MethodDelete: (*Sim).deleteCluster}},
		{"/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}/storageClasses", map[string]handlerFunc{http.MethodGet: (*Sim).listStorageClasses}},
		{"/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}/storageClasses/{storageClass_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getStorageClass}},
		{"/topology/v1/clusters", map[string]handlerFunc{http.MethodGet: (*Sim).listClusters}},
		{"/topology/v1/clusters/{cluster_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getCluster, http.MethodPut: (*Sim).putCluster, http.MethodDelete: (*Sim).deleteCluster}},
		{"/topology/v1/clusters/{cluster_id}/storageClasses", map[string]handlerFunc{http.MethodGet: (*Sim).listStorageClasses}},
		{"/topology/v1/clusters/{cluster_id}/storageClasses/{storageClass_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getStorageClass}},
		{"/topology/v1/managedClusters", map[string]handlerFunc{http.MethodGet: (*Sim).listManagedClusters, http.MethodPost: (*Sim).postManagedCluster}},
		{"/topology/v1/managedClusters/{managedCluster_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getManagedCluster, http.MethodPut: (*Sim).putManagedCluster, http.MethodDelete: (*Sim).deleteManagedCluster}},
		{"/topology/v1/managedClusters/{managedCluster_id}/storageClasses", map[string]handlerFunc{http.MethodGet: (*Sim).listStorageClasses}},
		{"/topology/v1/managedClusters/{managedCluster_id}/storageClasses/{storageClass_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getStorageClass}},
		{"/topology/v1/managedClusters/{managedCluster_id}/namespaces", map[string]handlerFunc{http.MethodGet: (*Sim).listNamespaces}},
		{"/topology/v1/managedClusters/{managedCluster_id}/namespaces/{namespace_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getNamespace}},
		{"/k8s/v2/apps", map[string]handlerFunc{http.MethodGet: (*Sim).listApps, http.MethodPost: (*Sim).postApp}},
		{"/k8s/v2/apps/{app_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getApp, http.MethodPut: (*Sim).putApp, http.MethodDelete: (*Sim).deleteApp}},
		{"/k8s/v1/apps/{app_id}/schedules", map[string]handlerFunc{http.MethodGet: (*Sim).listSchedules, http.MethodPost: (*Sim).postSchedule}},
		{"/k8s/v1/apps/{app_id}/schedules/{schedule_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getSchedule, http.MethodPut: (*Sim).putSchedule, http.MethodDelete: (*Sim).deleteSchedule}},
		{appAssetsRoute, map[string]handlerFunc{http.MethodGet: (*Sim).listAppAssets}}, // outside the documents (appassets.go)
		{"/k8s/v1/apps/{app_id}/appSnaps", map[string]handlerFunc{http.MethodGet: (*Sim).listSnapshots, http.MethodPost: (*Sim).postSnapshot}},
		{"/k8s/v1/apps/{app_id}/appSnaps/{appSnap_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getSnapshot, http.MethodDelete: (*Sim).deleteSnapshot}},
		{"/k8s/v1/apps/{app_id}/appBackups", map[string]handlerFunc{http.MethodGet: (*Sim).listBackups, http.MethodPost: (*Sim).postBackup}},
		{"/k8s/v1/apps/{app_id}/appBackups/{appBackup_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBackup, http.MethodDelete: (*Sim).deleteBackup}},
		{"/topology/v1/appBackups", map[string]handlerFunc{http.MethodGet: (*Sim).listBackups}},
		{"/topology/v1/appBackups/{appBackup_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBackup, http.MethodDelete: (*Sim).deleteBackup}},
		{"/k8s/v1/apps/{app_id}/executionHooks", map[string]handlerFunc{http.MethodGet: (*Sim).listHooks, http.MethodPost: (*Sim).postHook}},
		{"/k8s/v1/apps/{app_id}/executionHooks/{executionHook_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getHook, http.MethodPut: (*Sim).putHook, http.MethodDelete: (*Sim).deleteHook}},
		{"/core/v1/executionHooks", map[string]handlerFunc{http.MethodGet: (*Sim).listHooks, http.MethodPost: (*Sim).postHook}},
		{"/core/v1/executionHooks/{executionHook_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getHook, http.MethodPut: (*Sim).putHook, http.MethodDelete: (*Sim).deleteHook}},
		{"/core/v1/hookSources", map[string]handlerFunc{http.MethodGet: (*Sim).listHookSources, http.MethodPost: (*Sim).postHookSource}},
		{"/core/v1/hookSources/{hookSource_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getHookSource, http.MethodPut: (*Sim).putHookSource, http.MethodDelete: (*Sim).deleteHookSource}},
		// Identity and access (issue 47): users, groups, role bindings, tokens, settings, LDAP directory.
		{"/core/v1/users", map[string]handlerFunc{http.MethodGet: (*Sim).listUsers, http.MethodPost: (*Sim).postUser}},
		{"/core/v1/users/{user_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getUser, http.MethodPut: (*Sim).putUser, http.MethodDelete: (*Sim).deleteUser}},
		{"/core/v1/users/{user_id}/roleBindings", map[string]handlerFunc{http.MethodGet: (*Sim).listBindings, http.MethodPost: (*Sim).postBinding}},
		{"/core/v1/users/{user_id}/roleBindings/{roleBinding_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBinding, http.MethodPut: (*Sim).putBinding, http.MethodDelete: (*Sim).deleteBinding}},
		{"/core/v1/users/{user_id}/tokens", map[string]handlerFunc{http.MethodGet: (*Sim).listTokens, http.MethodPost: (*Sim).postToken}},
		{"/core/v1/users/{user_id}/tokens/{token_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getToken, http.MethodPut: (*Sim).putToken, http.MethodDelete: (*Sim).deleteToken}},
		{"/core/v1/groups", map[string]handlerFunc{http.MethodGet: (*Sim).listGroups, http.MethodPost: (*Sim).postGroup}},
		{"/core/v1/groups/{group_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getGroup, http.MethodPut: (*Sim).putGroup, http.MethodDelete: (*Sim).deleteGroup}},
		{"/core/v1/groups/{group_id}/roleBindings", map[string]handlerFunc{http.MethodGet: (*Sim).listBindings, http.MethodPost: (*Sim).postBinding}},
		{"/core/v1/groups/{group_id}/roleBindings/{roleBinding_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBinding, http.MethodPut: (*Sim).putBinding, http.MethodDelete: (*Sim).deleteBinding}},
		{"/core/v1/roleBindings", map[string]handlerFunc{http.MethodGet: (*Sim).listBindings, http.MethodPost: (*Sim).postBinding}},
		{"/core/v1/roleBindings/{roleBinding_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getBinding, http.MethodPut: (*Sim).putBinding, http.MethodDelete: (*Sim).deleteBinding}},
		{"/core/v1/settings", map[string]handlerFunc{http.MethodGet: (*Sim).listSettings}},
		{"/core/v1/settings/{setting_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getSetting, http.MethodPut: (*Sim).putSetting}},
		{"/core/v1/ldapUsers", map[string]handlerFunc{http.MethodGet: (*Sim).listLDAPUsers}},
		{"/core/v1/ldapUsers/{ldapUser_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getLDAPUser}},
		{"/core/v1/ldapGroups", map[string]handlerFunc{http.MethodGet: (*Sim).listLDAPGroups}},
		{"/core/v1/ldapGroups/{ldapGroup_id}", map[string]handlerFunc{http.MethodGet: (*Sim).getLDAPGroup}},
	}
	out := make([]*route, 0, len(table))
	for _, t := range table {
		out = append(out, &route{template: t.template, segments: splitPath(t.template), methods: t.methods})
	}
	return out
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// match finds the route of a request path. It returns the account segment separately;
// ok is false when the path is not under /accounts/{id} or matches no template.
func (s *Sim) match(path string) (rt *route, params map[string]string, account string, ok bool) {
	segs := splitPath(path)
	if len(segs) < 2 || segs[0] != "accounts" {
		return nil, nil, "", false
	}
	account, rest := segs[1], segs[2:]
	for _, cand := range s.routes {
		if len(cand.segments) != len(rest) {
			continue
		}
		p := map[string]string{}
		matched := true
		for i, seg := range cand.segments {
			if strings.HasPrefix(seg, "{") {
				p[strings.Trim(seg, "{}")] = rest[i]
			} else if seg != rest[i] {
				matched = false
				break
			}
		}
		if matched {
			return cand, p, account, true
		}
	}
	return nil, nil, account, false
}

// allowed lists a route's methods for the Allow header.
func (rt *route) allowed() string {
	var ms []string
	for m := range rt.methods {
		ms = append(ms, m)
	}
	sort.Strings(ms)
	return strings.Join(ms, ", ")
}

// Routes lists every "METHOD route" of the documents the simulator serves (the account
// probe and appAssets excluded: offSpecRoutes),
// in the form Count and Counts use.
func (s *Sim) Routes() []string {
	var out []string
	for _, rt := range s.routes {
		if isOffSpec(rt.template) {
			continue
		}
		for m := range rt.methods {
			out = append(out, m+" "+rt.template)
		}
	}
	sort.Strings(out)
	return out
}

// HealthPath is the readiness probe: GET or HEAD, no token. It is outside /accounts/...,
// is not counted, and no fault applies to it, so a CI script can wait for the simulator
// even while every API route is set to fail. Its answer also says how many injected
// faults have fired, so a script can check that its failure test met the failure.
const HealthPath = "/healthz"

// serveHealth answers the readiness probe; it reports whether r was one.
func (s *Sim) serveHealth(w http.ResponseWriter, r *http.Request) bool {
	if r.URL.Path != HealthPath {
		return false
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "use GET or HEAD", http.StatusMethodNotAllowed)
		return true
	}
	body, _ := json.Marshal(map[string]any{"status": "ok", "release": s.Release(), "accountID": s.AccountID(), "faultsFired": s.faultsFired()})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(append(body, '\n'))
	return true
}

// faultsFired is how many times injected faults have fired, in total.
func (s *Sim) faultsFired() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	n := 0
	for _, e := range s.faults.list {
		n += e.fired
	}
	return n
}
