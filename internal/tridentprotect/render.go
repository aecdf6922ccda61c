package tridentprotect

import (
	"fmt"
	"regexp"
	"sort"
)

var rfc1123Label = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Render converts an estate into Trident protect custom resources. The same estate and
// options always give the same rendering, byte for byte, whatever order the estate lists
// its objects in. What the estate holds that cannot be carried over as it is is in the
// warnings; what would make an object Trident protect's CRDs refuse, and cannot be left
// out, is an *InputError naming each object and the argument that fixes it. The other
// errors are for options that are not valid Kubernetes names (or, never in practice, a
// manifest YAML cannot encode).
func Render(e Estate, opts Options) (Rendering, error) {
	if opts.ProtectNamespace == "" {
		opts.ProtectNamespace = DefaultProtectNamespace
	}
	if !rfc1123Label.MatchString(opts.ProtectNamespace) {
		return Rendering{}, fmt.Errorf("tridentprotect: protect namespace %q is not a valid Kubernetes namespace name", opts.ProtectNamespace)
	}
	if opts.DataMoverPasswordSecret != "" && !rfc1123Label.MatchString(opts.DataMoverPasswordSecret) {
		return Rendering{}, fmt.Errorf("tridentprotect: data mover password secret %q is not a valid Kubernetes name", opts.DataMoverPasswordSecret)
	}
	r := renderer{opts: opts}
	r.buckets(e.Buckets)
	r.apps(e.Apps)
	return r.finish()
}

type renderer struct {
	opts         Options
	warns        warnings
	problems     problems
	vaults       []Manifest
	secrets      []Secret
	vaultOf      map[string]string // bucket ID -> AppVault name, rendered ones only
	bucketOf     map[string]Bucket // every bucket given, by ID
	appManifests []appManifests
}

// appManifests are one app's manifests, kept together so the YAML reads app by app.
type appManifests struct {
	application Manifest
	schedules   []Manifest
	hooks       []Manifest
}

func (r *renderer) buckets(in []Bucket) {
	buckets := append([]Bucket(nil), in...)
	sort.SliceStable(buckets, func(i, j int) bool { return less(buckets[i].Name, buckets[i].ID, buckets[j].Name, buckets[j].ID) })
	reqs := make([]nameRequest, len(buckets))
	for i, b := range buckets {
		reqs[i] = nameRequest{base: sanitizeName(b.Name, "bucket"), key: keyOf(b.ID, b.Name)}
	}
	names := assignNames(reqs)
	r.vaultOf, r.bucketOf = map[string]string{}, map[string]Bucket{}
	for i, b := range buckets {
		r.bucketOf[b.ID] = b
		spec, secret, ok := renderAppVault(b, names[i], r.opts, &r.warns, &r.problems)
		if !ok {
			continue
		}
		r.vaultOf[b.ID] = names[i]
		r.vaults = append(r.vaults, newManifest(KindAppVault, names[i], r.opts.ProtectNamespace, bucketSource(b), spec))
		r.secrets = append(r.secrets, secret)
	}
}

// placedApp is an app that has a namespace for its CRs.
type placedApp struct {
	app       App
	namespace string
	name      string
}

func (r *renderer) apps(in []App) {
	apps := append([]App(nil), in...)
	sort.SliceStable(apps, func(i, j int) bool { return less(apps[i].Name, apps[i].ID, apps[j].Name, apps[j].ID) })
	var placed []placedApp
	for _, a := range apps {
		ns, ok := appNamespace(a, r.opts.ProtectNamespace)
		if !ok {
			r.warns.add(appSource(a), "has no namespace Trident protect can hold its Application in (none, or only %q or ones its Application CRD refuses); no Application is rendered, nor its %d protection policies and %d execution hooks",
				r.opts.ProtectNamespace, len(a.Policies), len(a.Hooks))
			continue
		}
		placed = append(placed, placedApp{app: a, namespace: ns})
	}
	domains := make([]string, len(placed))
	reqs := make([]nameRequest, len(placed))
	for i, p := range placed {
		domains[i] = p.namespace
		reqs[i] = nameRequest{base: applicationName(p.app, r.opts.ProtectNamespace, p.namespace), key: keyOf(p.app.ID, p.app.Name)}
	}
	for i, name := range assignByDomain(domains, reqs) {
		placed[i].name = name
	}
	schedules := r.scheduleNames(placed)
	hooks := r.hookNames(placed)
	for i, p := range placed {
		spec := renderApplication(p.app, r.opts.ProtectNamespace, p.namespace, &r.warns)
		out := appManifests{application: newManifest(KindApplication, p.name, p.namespace, appSource(p.app), spec)}
		for j, pol := range sortedPolicies(p.app.Policies) {
			if m, ok := r.schedule(p, pol, schedules[i][j]); ok {
				out.schedules = append(out.schedules, m)
			}
		}
		for j, h := range sortedHooks(p.app.Hooks) {
			if spec, ok := renderExecHook(h, p.name, &r.warns, &r.problems); ok {
				out.hooks = append(out.hooks, newManifest(KindExecHook, hooks[i][j], p.namespace, hookSource(h), spec))
			}
		}
		r.appManifests = append(r.appManifests, out)
	}
}

// scheduleNames names every policy of the placed apps, per namespace. A Schedule's name
// starts with its app's: Astra names policies per app, often after their granularity.
func (r *renderer) scheduleNames(placed []placedApp) [][]string {
	var domains []string
	var reqs []nameRequest
	for _, p := range placed {
		for _, pol := range sortedPolicies(p.app.Policies) {
			domains = append(domains, p.namespace)
			reqs = append(reqs, nameRequest{base: sanitizeName(p.app.Name+"-"+pol.Name, "schedule"), key: keyOf(pol.ID, p.app.Name+"/"+pol.Name)})
		}
	}
	return regroup(placed, assignByDomain(domains, reqs), func(a App) int { return len(a.Policies) })
}

// hookNames names every hook of the placed apps, per namespace (Astra hook names are
// unique across the account already).
func (r *renderer) hookNames(placed []placedApp) [][]string {
	var domains []string
	var reqs []nameRequest
	for _, p := range placed {
		for _, h := range sortedHooks(p.app.Hooks) {
			domains = append(domains, p.namespace)
			reqs = append(reqs, nameRequest{base: sanitizeName(h.Name, "hook"), key: keyOf(h.ID, h.Name)})
		}
	}
	return regroup(placed, assignByDomain(domains, reqs), func(a App) int { return len(a.Hooks) })
}

func regroup(placed []placedApp, flat []string, count func(App) int) [][]string {
	out := make([][]string, len(placed))
	at := 0
	for i, p := range placed {
		n := count(p.app)
		out[i] = flat[at : at+n]
		at += n
	}
	return out
}

func (r *renderer) schedule(p placedApp, pol Policy, name string) (Manifest, bool) {
	vault, ok := r.vaultFor(p.app, pol)
	if !ok {
		return Manifest{}, false
	}
	spec, ok := renderSchedule(pol, p.name, vault, &r.warns)
	if !ok {
		return Manifest{}, false
	}
	return newManifest(KindSchedule, name, p.namespace, policySource(pol), spec), true
}

// vaultFor is the AppVault a policy's Schedule refers to: its bucket's, else the app's
// default bucket's (Astra sends a bucketless policy's backups there).
func (r *renderer) vaultFor(a App, pol Policy) (string, bool) {
	src := policySource(pol)
	if pol.BucketID != "" {
		if v, ok := r.vaultOf[pol.BucketID]; ok {
			return v, true
		}
		if b, known := r.bucketOf[pol.BucketID]; known {
			r.warns.add(src, "its bucket %s could not be rendered as an AppVault (see that bucket's warnings); no Schedule is rendered", quote(b.Name))
		} else {
			r.warns.add(src, "its bucket %s is not among the buckets rendered; no Schedule is rendered", pol.BucketID)
		}
		return "", false
	}
	const needs = "a Trident protect Schedule needs an AppVault, even for snapshots only; no Schedule is rendered"
	if a.DefaultBucketID == "" {
		r.warns.add(src, "names no bucket, and no default bucket is known: %s", needs)
		return "", false
	}
	if v, ok := r.vaultOf[a.DefaultBucketID]; ok {
		r.warns.add(src, "names no bucket: its Schedule uses AppVault %q, of the default bucket %s, where Astra Control sends such a policy's backups; check that it is the bucket they went to",
			v, quote(r.bucketOf[a.DefaultBucketID].Name))
		return v, true
	}
	if b, known := r.bucketOf[a.DefaultBucketID]; known {
		r.warns.add(src, "names no bucket, and the default bucket %s could not be rendered as an AppVault (see that bucket's warnings): %s", quote(b.Name), needs)
	} else {
		r.warns.add(src, "names no bucket, and the default bucket %s is not among the buckets rendered: %s", a.DefaultBucketID, needs)
	}
	return "", false
}

func (r *renderer) finish() (Rendering, error) {
	if len(r.problems) > 0 {
		return Rendering{}, &InputError{Problems: r.problems}
	}
	sort.SliceStable(r.vaults, func(i, j int) bool { return r.vaults[i].Name < r.vaults[j].Name })
	sort.SliceStable(r.appManifests, func(i, j int) bool {
		a, b := r.appManifests[i].application, r.appManifests[j].application
		return less(a.Namespace, a.Name, b.Namespace, b.Name)
	})
	all := append([]Manifest(nil), r.vaults...)
	for _, am := range r.appManifests {
		sort.SliceStable(am.schedules, func(i, j int) bool { return am.schedules[i].Name < am.schedules[j].Name })
		sort.SliceStable(am.hooks, func(i, j int) bool { return am.hooks[i].Name < am.hooks[j].Name })
		all = append(all, am.application)
		all = append(all, am.schedules...)
		all = append(all, am.hooks...)
	}
	docs := make([]string, len(all))
	for i := range all {
		y, err := manifestYAML(all[i])
		if err != nil {
			return Rendering{}, err
		}
		all[i].YAML, docs[i] = y, y
	}
	secrets := r.secrets
	if r.opts.DataMoverPasswordSecret != "" && len(r.vaults) > 0 {
		secrets = append(secrets, Secret{
			Name: r.opts.DataMoverPasswordSecret, Namespace: r.opts.ProtectNamespace, Keys: []string{"KOPIA_PASSWORD", "RESTIC_PASSWORD"},
			Purpose: "KOPIA_PASSWORD, RESTIC_PASSWORD: the passwords of the data mover repositories; a backup cannot be restored without them, so keep a copy outside the cluster",
		})
	}
	sort.SliceStable(secrets, func(i, j int) bool { return secrets[i].Name < secrets[j].Name })
	return Rendering{Manifests: all, Secrets: secrets, Warnings: r.warns, YAML: joinYAML(docs)}, nil
}

func newManifest(kind, name, namespace string, src Source, spec map[string]any) Manifest {
	return Manifest{
		Kind: kind, Name: name, Namespace: namespace, Source: src,
		Object: map[string]any{
			"apiVersion": APIVersion,
			"kind":       kind,
			"metadata":   map[string]any{"name": name, "namespace": namespace},
			"spec":       spec,
		},
	}
}
