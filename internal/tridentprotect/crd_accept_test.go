package tridentprotect

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect/crdcheck"
)

// The CRD check must be able to fail: each case breaks one rule of Trident protect's CRDs
// in a valid rendered manifest and expects the refusal that names it.
func TestCRDCheckRefuses(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{})
	base := map[string]Manifest{
		"s3":            find(t, r, KindAppVault, "minio"),
		"azure":         find(t, r, KindAppVault, "azure-blob"),
		"gcp":           find(t, r, KindAppVault, "gcs-backups"),
		KindApplication: find(t, r, KindApplication, "mysql"),
		KindSchedule:    find(t, r, KindSchedule, "mysql-weekly-schedule"),
		KindExecHook:    find(t, r, KindExecHook, "mysql-quiesce"),
	}
	for k, m := range base {
		if errs := crdRefusals(t, m.Object); len(errs) != 0 {
			t.Fatalf("the valid %s is refused: %v", k, errs)
		}
	}
	ns := func(o map[string]any) map[string]any {
		return spec(o)["includedNamespaces"].([]any)[0].(map[string]any)
	}
	provider := func(o map[string]any, key string) map[string]any {
		return spec(o)["providerConfig"].(map[string]any)[key].(map[string]any)
	}
	// Each case gives the refusal of our table, then the chart CRDs' (kin-openapi's words).
	cases := []struct {
		name       string
		base       string
		mutate     func(o map[string]any)
		own, chart string
	}{
		{"azure without endpoint", "azure", func(o map[string]any) { delete(provider(o, "azure"), "endpoint") },
			`spec.providerConfig.azure.endpoint is required`, `property "endpoint" is missing`},
		{"gcp without projectID", "gcp", func(o map[string]any) { delete(provider(o, "gcp"), "projectID") },
			`spec.providerConfig.gcp.projectID is required`, `property "projectID" is missing`},
		{"pruned field", "s3", func(o map[string]any) { provider(o, "s3")["region"] = "us-east-1" },
			`spec.providerConfig.s3.region is not a field our table knows`, `property "region" is unsupported`},
		{"pruned spec field", KindSchedule, func(o map[string]any) { spec(o)["retention"] = "3" },
			`spec.retention is not a field our table knows`, `property "retention" is unsupported`},
		{"one-letter namespace", KindApplication, func(o map[string]any) { ns(o)["namespace"] = "a" },
			`spec.includedNamespaces[0].namespace "a" does not match`, `doesn't match the regular expression`},
		{"namespace too long", KindApplication, func(o map[string]any) { ns(o)["namespace"] = strings.Repeat("a", 64) },
			`spec.includedNamespaces[0].namespace has 64 characters, more than 63`, `maximum string length is 63`},
		{"hookSource too long", KindExecHook, func(o map[string]any) { spec(o)["hookSource"] = strings.Repeat("A", maxHookSourceChars+1) },
			`spec.hookSource has 131073 characters, more than 131072`, `maximum string length is 131072`},
		{"too many arguments", KindExecHook, func(o map[string]any) { spec(o)["arguments"] = make([]any, maxHookArguments+1) },
			`spec.arguments has 128 items, more than 127`, `maximum number of items is 127`},
		{"too many matching criteria", KindExecHook, func(o map[string]any) {
			var l []any
			for range 11 {
				l = append(l, map[string]any{"type": "podName", "value": "x"})
			}
			spec(o)["matchingCriteria"] = l
		}, `spec.matchingCriteria has 11 items, more than 10`, `maximum number of items is 10`},
		{"enum", KindSchedule, func(o map[string]any) { spec(o)["granularity"] = "weekly" },
			`spec.granularity "weekly" is none of Hourly, Daily, Weekly, Monthly, Custom`, `value is not one of the allowed values`},
		{"required", KindSchedule, func(o map[string]any) { delete(spec(o), "snapshotRetention") },
			`spec.snapshotRetention is required`, `property "snapshotRetention" is missing`},
		{"retention pattern", KindSchedule, func(o map[string]any) { spec(o)["backupRetention"] = "07" },
			`spec.backupRetention "07" does not match`, `doesn't match the regular expression`},
		{"type", KindSchedule, func(o map[string]any) { spec(o)["enabled"] = "true" },
			`spec.enabled must be true or false, not string`, `value must be a boolean`},
		{"name", KindExecHook, func(o map[string]any) { meta(o)["name"] = "My_Hook" },
			`metadata.name "My_Hook" is not a DNS subdomain`, `metadata.name "My_Hook" is not a DNS subdomain`},
		{"namespace", KindExecHook, func(o map[string]any) { meta(o)["namespace"] = "a.b" },
			`metadata.namespace "a.b" is not a DNS label`, `metadata.namespace "a.b" is not a DNS label`},
		{"apiVersion", "s3", func(o map[string]any) { o["apiVersion"] = "protect.trident.netapp.io/v1beta1" },
			`is not protect.trident.netapp.io/v1`, `is not protect.trident.netapp.io/v1`},
		{"CEL: namespaces or virtual machines", KindApplication, func(o map[string]any) {
			spec(o)["includedVirtualMachines"] = []any{map[string]any{"namespace": "vm", "names": []any{"a"}}}
		}, `spec: exactly one of includedNamespaces and includedVirtualMachines must be given`,
			`"has(self.includedVirtualMachines) != has(self.includedNamespaces)" fails`},
	}
	checks := crdcheck.Checks(t)
	want := func(c crdcheck.Check, own, chart string) string {
		if c.Name == crdcheck.OwnTable {
			return own
		}
		return chart
	}
	for _, c := range cases {
		for _, check := range checks {
			t.Run(check.Name+": "+c.name, func(t *testing.T) {
				obj := deepCopy(base[c.base].Object).(map[string]any)
				c.mutate(obj)
				w := want(check, c.own, c.chart)
				if errs := check.Refusals(obj); !strings.Contains(strings.Join(errs, "\n"), w) {
					t.Errorf("refusals %q do not contain %q", errs, w)
				}
			})
		}
	}
	// The rules on updates, of the Application in place.
	app := base[KindApplication].Object
	updates := []struct {
		name       string
		mutate     func(o map[string]any)
		own, chart string
	}{
		{"a namespace changes", func(o map[string]any) { ns(o)["namespace"] = "mysql-2" },
			`spec.includedNamespaces cannot change after creation`, `spec.includedNamespaces: an update breaks "self == oldSelf"`},
		{"a selector changes", func(o map[string]any) { delete(ns(o), "labelSelector") },
			`spec.includedNamespaces cannot change after creation`, `spec.includedNamespaces: an update breaks "self == oldSelf"`},
		{"cluster-scoped resources go", func(o map[string]any) { delete(spec(o), "includedClusterScopedResources") },
			`spec.includedClusterScopedResources can be neither added nor removed after creation`,
			`spec: an update breaks "has(self.includedClusterScopedResources) == has(oldSelf.includedClusterScopedResources)"`},
	}
	for _, c := range updates {
		for _, check := range checks {
			t.Run(check.Name+": update: "+c.name, func(t *testing.T) {
				cur := deepCopy(app).(map[string]any)
				c.mutate(cur)
				w := want(check, c.own, c.chart)
				if errs := check.UpdateRefusals(app, cur); !strings.Contains(strings.Join(errs, "\n"), w) {
					t.Errorf("refusals %q do not contain %q", errs, w)
				}
			})
		}
	}
	if errs := crdUpdateRefusals(t, app, deepCopy(app).(map[string]any)); len(errs) != 0 {
		t.Errorf("an unchanged Application is refused on update: %v", errs)
	}
}

// A change of an app's scope renders an Application of another name, so that nothing
// applies it over the old one, whose scope the CRD makes immutable; what keeps its name
// (Schedules, ExecHooks, AppVaults) is an update the CRDs accept.
func TestScopeChangeRendersAnotherApplication(t *testing.T) {
	before := sampleEstate()
	changes := map[string]func(e *Estate){
		"namespace added": func(e *Estate) {
			e.Apps[0].NamespaceScopedResources = append(e.Apps[0].NamespaceScopedResources, NamespaceScope{Namespace: "mysql-logs"})
		},
		"selector changed": func(e *Estate) {
			e.Apps[0].NamespaceScopedResources[0].LabelSelectors = []string{"app=mysql,tier!=cache"}
		},
		"cluster-scoped resources removed": func(e *Estate) { e.Apps[0].ClusterScopedResources = nil },
		"cluster-scoped resources added": func(e *Estate) {
			e.Apps[1].ClusterScopedResources = []ClusterScope{{Version: "v1", Kind: "PersistentVolume"}}
		},
	}
	prev := mustRender(t, before, Options{})
	// Not a scope change: the order Astra Control lists selectors in.
	reordered := deepCopyEstate(before)
	reordered.Apps[0].NamespaceScopedResources[0].LabelSelectors = []string{"tier=db", "app.kubernetes.io/name=mysql"}
	before.Apps[0].NamespaceScopedResources[0].LabelSelectors = []string{"app.kubernetes.io/name=mysql", "tier=db"}
	if a, b := appRef(t, mustRender(t, before, Options{}), "mysql"), appRef(t, mustRender(t, reordered, Options{}), "mysql"); a != b {
		t.Errorf("the order of two selectors renames the Application: %s, then %s", a, b)
	}
	before = sampleEstate()
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			after := deepCopyEstate(before)
			change(&after)
			cur := mustRender(t, after, Options{})
			assertCRDsAccept(t, cur)
			assertCRDsAcceptUpdate(t, prev, cur)
			changed := 0
			for _, app := range []string{"mysql", "wordpress"} {
				if appRef(t, prev, app) != appRef(t, cur, app) {
					changed++
				}
			}
			if changed != 1 {
				t.Errorf("%d Applications renamed, want the one whose scope changed", changed)
			}
		})
	}
	// Without the new name, the same change is an update the CRD refuses: the check above
	// would see it.
	after := deepCopyEstate(before)
	changes["namespace added"](&after)
	old := find(t, prev, KindApplication, "mysql").Object
	updated := deepCopy(old).(map[string]any)
	updated["spec"] = specOf(find(t, mustRender(t, after, Options{}), KindApplication, "mysql"))
	for _, check := range crdcheck.Checks(t) {
		if errs := check.UpdateRefusals(old, updated); len(errs) == 0 {
			t.Errorf("%s: an Application updated in place with a new namespace is accepted; the immutability check is broken", check.Name)
		}
	}
}

func deepCopyEstate(e Estate) Estate {
	out := Estate{Buckets: append([]Bucket(nil), e.Buckets...)}
	for _, a := range e.Apps {
		a.NamespaceScopedResources = append([]NamespaceScope(nil), a.NamespaceScopedResources...)
		a.ClusterScopedResources = append([]ClusterScope(nil), a.ClusterScopedResources...)
		out.Apps = append(out.Apps, a)
	}
	return out
}

// The CRD limits of an ExecHook: at the limit it renders and is accepted; above, the
// rendering fails naming the hook.
func TestExecHookLimits(t *testing.T) {
	atLimit := strings.Repeat("x", maxHookSourceChars/4*3)
	args := make([]string, maxHookArguments)
	r := mustRender(t, hookEstate(Hook{ID: "h-1", Name: "big", Stage: "pre", Action: "snapshot", Arguments: args,
		Source: HookSource{Name: "s", Script: atLimit}}), Options{})
	if got := len(specOf(find(t, r, KindExecHook, "big"))["hookSource"].(string)); got != maxHookSourceChars {
		t.Fatalf("hookSource of %d characters, want %d", got, maxHookSourceChars)
	}
	assertValid(t, r)
	cases := []struct {
		name string
		hook Hook
		want string
	}{
		{"script", Hook{ID: "h-1", Name: "big", Stage: "pre", Action: "snapshot", Source: HookSource{Name: "s", Script: atLimit + "x"}},
			`execution hook "big" (h-1): its hook source "s" is 98305 bytes, 131076 base64 characters in spec.hookSource, more than the 131072 Trident protect's ExecHook CRD accepts (a script of at most 98304 bytes): shorten the script, for example by having it read the rest from the container`},
		{"arguments", Hook{ID: "h-1", Name: "big", Stage: "pre", Action: "snapshot", Arguments: make([]string, maxHookArguments+1), Source: HookSource{Name: "s", Script: "true"}},
			`execution hook "big" (h-1): has 128 arguments, more than the 127 Trident protect's ExecHook CRD accepts in spec.arguments: pass fewer (for example in one argument the script splits)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Render(hookEstate(c.hook), Options{})
			var ie *InputError
			if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].String() != c.want || ie.Problems[0].Argument != "" {
				t.Errorf("error %v, want the one problem %s", err, c.want)
			}
		})
	}
}

// Random estates, of every bucket provider, granularity, hook stage and action, criterion
// type and selector form (comparisons, one-letter namespaces and garbage included): every
// resource rendered is accepted by the CRDs, and so is each update to the rendering of the
// estate with its scopes changed. A rendering refused is refused only for what the CRDs
// require and the input lacks, naming the argument or the hook.
func TestRandomEstatesAcceptedByCRDs(t *testing.T) {
	rendered, refused := 0, 0
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 45))
		e := randomEstate(rng)
		r, err := Render(e, Options{})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for _, p := range ie.Problems {
				named := p.Argument == ArgGCPProjectIDs && p.Key != "" && strings.Contains(p.Message, p.Argument+"["+fmt.Sprintf("%q", p.Key)+"]") ||
					strings.HasPrefix(p.Object, "execution hook ") && strings.Contains(p.Message, "hookSource")
				if !named {
					t.Errorf("seed %d: refused for %s", seed, p)
				}
			}
			refused++
			continue
		}
		rendered++
		assertCRDsAccept(t, r)
		rescoped := deepCopyEstate(e)
		for i := range rescoped.Apps {
			if rng.IntN(2) == 0 {
				rescoped.Apps[i].NamespaceScopedResources = randomNamespaces(rng)
			}
			if rng.IntN(2) == 0 {
				rescoped.Apps[i].ClusterScopedResources = randomClusterScopes(rng)
			}
		}
		if cur, err := Render(rescoped, Options{}); err == nil {
			assertCRDsAccept(t, cur)
			assertCRDsAcceptUpdate(t, r, cur)
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
	if rendered < 100 || refused == 0 {
		t.Errorf("%d estates rendered and %d refused: the generator does not cover both", rendered, refused)
	}
}

var randomSelectors = []string{"", "app=web", "app==web", "app!=web", "tier in (a,b)", "tier notin (c)", "app", "!canary",
	"replicas>1", "replicas<3", "app=web,replicas>1", "app=a,app=b", "app.kubernetes.io/name=x,!y", "not a selector (", "tier in ()"}

var randomNamespaceNames = []string{"a", "db", "web-1", "trident-protect", "x9", "", strings.Repeat("n", 63), "0"}

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func randomNamespaces(rng *rand.Rand) []NamespaceScope {
	var out []NamespaceScope
	for range 1 + rng.IntN(3) {
		ns := NamespaceScope{Namespace: pick(rng, randomNamespaceNames)}
		for range rng.IntN(3) {
			ns.LabelSelectors = append(ns.LabelSelectors, pick(rng, randomSelectors))
		}
		out = append(out, ns)
	}
	return out
}

func randomClusterScopes(rng *rand.Rand) []ClusterScope {
	var out []ClusterScope
	for range rng.IntN(3) {
		cs := pick(rng, []ClusterScope{{Version: "v1", Kind: "PersistentVolume"}, {Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"},
			{Group: "storage.k8s.io", Version: "v1"}})
		if rng.IntN(2) == 0 {
			cs.LabelSelectors = []string{pick(rng, randomSelectors)}
		}
		out = append(out, cs)
	}
	return out
}

func randomEstate(rng *rand.Rand) Estate {
	var e Estate
	for i := range 1 + rng.IntN(4) {
		id := fmt.Sprintf("b-%d", i)
		b := Bucket{ID: id, Name: pick(rng, []string{"backups", "Prod Vault", "x", "a_b"}), Provider: pick(rng, []string{"ontap-s3", "storagegrid-s3", "generic-s3", "aws", "gcp", "azure", "ibm"})}
		switch b.Provider {
		case "gcp":
			b.GCP = &GCPLocation{BucketName: "gcs-" + id}
			if rng.IntN(4) > 0 {
				b.GCP.ProjectID = "acme-prod"
			}
		case "azure":
			b.Azure = &AzureLocation{StorageAccount: "acct", BucketName: "c-" + id, Endpoint: pick(rng, []string{"", "", "core.usgovcloudapi.net", "core.chinacloudapi.cn"})}
		default:
			b.S3 = &S3Location{BucketName: "s3-" + id, ServerURL: pick(rng, []string{"s3.example.com", "http://10.0.0.5:9000", "https://u:p@grid.example.com:10443/p", "ftp://x"})}
		}
		e.Buckets = append(e.Buckets, b)
	}
	// Scripts at and over the CRD's limit in a few estates: they are slow to carry around.
	script := "#!/bin/sh\ntrue\n"
	if n := rng.IntN(20); n < 2 {
		script = strings.Repeat("y", maxHookSourceChars/4*3+n)
	}
	for i := range 1 + rng.IntN(3) {
		a := App{ID: fmt.Sprintf("a-%d", i), Name: pick(rng, []string{"shop", "Shop", "db", "a"}), NamespaceScopedResources: randomNamespaces(rng),
			ClusterScopedResources: randomClusterScopes(rng), DefaultBucketID: pick(rng, []string{"", "b-0"})}
		for j := range rng.IntN(4) {
			p := Policy{ID: fmt.Sprintf("%s-p%d", a.ID, j), Name: pick(rng, []string{"hourly", "daily", "weekly", "monthly"}),
				Granularity: pick(rng, []string{"hourly", "daily", "weekly", "monthly", "custom"}), Minute: fmt.Sprint(rng.IntN(60)),
				Hour: fmt.Sprint(rng.IntN(24)), DayOfWeek: fmt.Sprint(rng.IntN(8)), DayOfMonth: fmt.Sprint(1 + rng.IntN(31)),
				SnapshotRetention: fmt.Sprint(rng.IntN(3)), BackupRetention: fmt.Sprint(rng.IntN(3)),
				BucketID: pick(rng, []string{"", "b-0", fmt.Sprintf("b-%d", rng.IntN(4))}), Disabled: rng.IntN(4) == 0}
			a.Policies = append(a.Policies, p)
		}
		for j := range rng.IntN(4) {
			h := Hook{ID: fmt.Sprintf("%s-h%d", a.ID, j), Name: pick(rng, []string{"quiesce", "Thaw", "h"}),
				HookType: pick(rng, []string{"", "custom", "netapp"}), Stage: pick(rng, []string{"pre", "post"}),
				Action: pick(rng, []string{"snapshot", "backup", "restore", "failover"}), Disabled: rng.IntN(4) == 0,
				Source: HookSource{Name: "s", Script: script, Private: rng.IntN(8) == 0}}
			for range rng.IntN(4) {
				h.Arguments = append(h.Arguments, pick(rng, []string{"--x", "", "a b"}))
			}
			for range rng.IntN(4) {
				h.MatchingCriteria = append(h.MatchingCriteria, MatchingCriterion{
					Type: pick(rng, []string{"containerImage", "ContainerName", "podName", "podLabel", "namespaceName"}), Value: "^x$"})
			}
			a.Hooks = append(a.Hooks, h)
		}
		e.Apps = append(e.Apps, a)
	}
	return e
}
