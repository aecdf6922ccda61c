package tridentprotect

import (
	"reflect"
	"testing"
)

func TestApplication(t *testing.T) {
	ml := func(k, v string) map[string]any { return map[string]any{"matchLabels": map[string]any{k: v}} }
	gvk := func(g, v, k string) map[string]any { return map[string]any{"group": g, "version": v, "kind": k} }
	cases := []struct {
		name      string
		app       App
		wantName  string
		wantNS    string
		wantSpec  map[string]any
		warnings  []string
		protectNS string
	}{
		{
			name:     "one namespace, no selector",
			app:      App{ID: "a-1", Name: "WordPress", NamespaceScopedResources: []NamespaceScope{{Namespace: "wordpress"}}},
			wantName: "wordpress", wantNS: "wordpress",
			wantSpec: map[string]any{"includedNamespaces": []any{map[string]any{"namespace": "wordpress"}}},
		},
		{
			name: "several namespaces, with and without selectors, in sorted order",
			app: App{ID: "a-2", Name: "shop", NamespaceScopedResources: []NamespaceScope{
				{Namespace: "shop-web", LabelSelectors: []string{"tier=web"}},
				{Namespace: "shop-db", LabelSelectors: []string{""}},
				{Namespace: "shop-cache", LabelSelectors: []string{"app in (redis)"}},
			}},
			wantName: "shop", wantNS: "shop-cache",
			wantSpec: map[string]any{"includedNamespaces": []any{
				map[string]any{"namespace": "shop-cache", "labelSelector": map[string]any{"matchExpressions": []any{
					map[string]any{"key": "app", "operator": "In", "values": []any{"redis"}}}}},
				map[string]any{"namespace": "shop-db"},
				map[string]any{"namespace": "shop-web", "labelSelector": ml("tier", "web")},
			}},
		},
		{
			name: "several selectors on one namespace, and a namespace listed twice",
			app: App{ID: "a-3", Name: "mysql", NamespaceScopedResources: []NamespaceScope{
				{Namespace: "db", LabelSelectors: []string{"app=mysql", "app=mysql-exporter"}},
				{Namespace: "db", LabelSelectors: []string{"app=mysql"}},
			}},
			wantName: "mysql", wantNS: "db",
			wantSpec: map[string]any{"includedNamespaces": []any{
				map[string]any{"namespace": "db", "labelSelector": ml("app", "mysql")},
				map[string]any{"namespace": "db", "labelSelector": ml("app", "mysql-exporter")},
			}},
			warnings: []string{`app "mysql" (a-3): namespace "db" has 2 label selectors; each is its own entry, so Trident protect includes what any of them selects (Astra Control does not document how it combines them)`},
		},
		{
			name: "a selector that does not parse includes the whole namespace",
			app: App{ID: "a-4", Name: "legacy", NamespaceScopedResources: []NamespaceScope{
				{Namespace: "legacy", LabelSelectors: []string{"app=my app"}},
			}},
			wantName: "legacy", wantNS: "legacy",
			wantSpec: map[string]any{"includedNamespaces": []any{map[string]any{"namespace": "legacy"}}},
			warnings: []string{`app "legacy" (a-4): label selector "app=my app" of namespace "legacy" is not a valid Kubernetes selector (found "app"; expected a comma or the end of the selector); the whole of it is included instead`},
		},
		{
			name: "cluster-scoped resources: with and without selectors, core group, several selectors, one without a kind",
			app: App{ID: "a-5", Name: "operator", NamespaceScopedResources: []NamespaceScope{{Namespace: "operator"}},
				ClusterScopedResources: []ClusterScope{
					{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole", LabelSelectors: []string{"app=op", "team=db"}},
					{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
					{Version: "v1", Kind: "PersistentVolume", LabelSelectors: []string{"app=op"}},
					{Group: "storage.k8s.io", Version: "v1"},
				}},
			wantName: "operator", wantNS: "operator",
			wantSpec: map[string]any{
				"includedNamespaces": []any{map[string]any{"namespace": "operator"}},
				"includedClusterScopedResources": []any{
					map[string]any{"groupVersionKind": gvk("apiextensions.k8s.io", "v1", "CustomResourceDefinition")},
					map[string]any{"groupVersionKind": gvk("rbac.authorization.k8s.io", "v1", "ClusterRole"), "labelSelector": ml("app", "op")},
					map[string]any{"groupVersionKind": gvk("rbac.authorization.k8s.io", "v1", "ClusterRole"), "labelSelector": ml("team", "db")},
					map[string]any{"groupVersionKind": gvk("", "v1", "PersistentVolume"), "labelSelector": ml("app", "op")},
				},
			},
			warnings: []string{
				`app "operator" (a-5): cluster-scoped resource "rbac.authorization.k8s.io/v1/ClusterRole" has 2 label selectors; each is its own entry, so Trident protect includes what any of them selects (Astra Control does not document how it combines them)`,
				`app "operator" (a-5): cluster-scoped resource "storage.k8s.io/v1/" has no version or kind; left out`,
			},
		},
		{
			name: "Trident protect's own namespace is included but does not hold the CRs",
			app: App{ID: "a-6", Name: "odd", NamespaceScopedResources: []NamespaceScope{
				{Namespace: "trident-protect"}, {Namespace: "zeta"},
			}},
			wantName: "odd", wantNS: "zeta",
			wantSpec: map[string]any{"includedNamespaces": []any{
				map[string]any{"namespace": "trident-protect"}, map[string]any{"namespace": "zeta"},
			}},
			warnings: []string{`app "odd" (a-6): includes namespace "trident-protect", where Trident protect accepts no application CRs; the app's CRs go to namespace "zeta"`},
		},
		{
			name: "comparisons have no label selector form: left out, never an existence test",
			app: App{ID: "a-8", Name: "scaled", NamespaceScopedResources: []NamespaceScope{
				{Namespace: "web", LabelSelectors: []string{"app=web,replicas>1"}},
				{Namespace: "jobs", LabelSelectors: []string{"attempts < 3"}},
			}},
			wantName: "scaled", wantNS: "jobs",
			wantSpec: map[string]any{"includedNamespaces": []any{
				map[string]any{"namespace": "jobs"},
				map[string]any{"namespace": "web", "labelSelector": ml("app", "web")},
			}},
			warnings: []string{
				`app "scaled" (a-8): label selector "attempts < 3" of namespace "jobs": "attempts < 3" has no form in a Kubernetes label selector, which Trident protect takes (its operators are In, NotIn, Exists and DoesNotExist); left out, so the Application includes more than Astra Control did`,
				`app "scaled" (a-8): label selector "app=web,replicas>1" of namespace "web": "replicas>1" has no form in a Kubernetes label selector, which Trident protect takes (its operators are In, NotIn, Exists and DoesNotExist); left out, so the Application includes more than Astra Control did`,
			},
		},
		{
			name:     "a one-character namespace is refused by the CRD: left out",
			app:      App{ID: "a-9", Name: "tiny", NamespaceScopedResources: []NamespaceScope{{Namespace: "a"}, {Namespace: "tiny"}}},
			wantName: "tiny", wantNS: "tiny",
			wantSpec: map[string]any{"includedNamespaces": []any{map[string]any{"namespace": "tiny"}}},
			warnings: []string{`app "tiny" (a-9): namespace "a" does not match ^[a-z0-9][a-z0-9-]*[a-z0-9]$, the pattern Trident protect's Application CRD requires of an included namespace (a one-character name does not); it is left out of the Application: protect it another way`},
		},
		{
			name:      "a custom protect namespace",
			app:       App{ID: "a-7", Name: "odd", NamespaceScopedResources: []NamespaceScope{{Namespace: "protect"}, {Namespace: "apps"}}},
			protectNS: "protect",
			wantName:  "odd", wantNS: "apps",
			wantSpec: map[string]any{"includedNamespaces": []any{
				map[string]any{"namespace": "apps"}, map[string]any{"namespace": "protect"},
			}},
			warnings: []string{`app "odd" (a-7): includes namespace "protect", where Trident protect accepts no application CRs; the app's CRs go to namespace "apps"`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, Estate{Apps: []App{c.app}}, Options{ProtectNamespace: c.protectNS})
			m := find(t, r, KindApplication, c.wantName)
			if m.Namespace != c.wantNS {
				t.Errorf("namespace %q, want %q", m.Namespace, c.wantNS)
			}
			if !reflect.DeepEqual(specOf(m), c.wantSpec) {
				t.Errorf("spec:\n%s\nwant:\n%s", jsonOf(specOf(m)), jsonOf(c.wantSpec))
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), c.warnings)
			assertValid(t, r)
		})
	}
}

func TestApplicationNotRendered(t *testing.T) {
	pol := Policy{ID: "p", Name: "daily", Granularity: "daily", Minute: "0", Hour: "0", SnapshotRetention: "1", BackupRetention: "1"}
	hook := Hook{ID: "h", Name: "h", Action: "snapshot", Stage: "pre", Source: HookSource{Script: "true"}}
	cases := []struct {
		name    string
		app     App
		warning string
	}{
		{"no namespace", App{ID: "a", Name: "empty", Policies: []Policy{pol}, Hooks: []Hook{hook}},
			`app "empty" (a): has no namespace Trident protect can hold its Application in (none, or only "trident-protect" or ones its Application CRD refuses); no Application is rendered, nor its 1 protection policies and 1 execution hooks`},
		{"only a one-character namespace", App{ID: "a", Name: "x", NamespaceScopedResources: []NamespaceScope{{Namespace: "x"}}},
			`app "x" (a): has no namespace Trident protect can hold its Application in (none, or only "trident-protect" or ones its Application CRD refuses); no Application is rendered, nor its 0 protection policies and 0 execution hooks`},
		{"only Trident protect's namespace", App{ID: "a", Name: "tp", NamespaceScopedResources: []NamespaceScope{{Namespace: "trident-protect"}}},
			`app "tp" (a): has no namespace Trident protect can hold its Application in (none, or only "trident-protect" or ones its Application CRD refuses); no Application is rendered, nor its 0 protection policies and 0 execution hooks`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, Estate{Apps: []App{c.app}}, Options{})
			if len(r.Manifests) != 0 {
				t.Errorf("rendered %v, want nothing", manifestKeys(r))
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), []string{c.warning})
		})
	}
}
