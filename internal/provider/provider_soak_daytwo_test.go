package provider

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Day two of the soak: on cluster 0, once managed, an app with what protects it and what
// is taken of it: a protection policy, a snapshot, a backup into a bucket (with its S3 key
// pair), an execution hook running a hook source, and a clone of the app (live, or from
// the backup) into a namespace of its own. The bucket, its key pair and the hook source do
// not need the cluster and come and go on their own.
//
// Policies never fire during the soak: the harness pauses the simulator's schedule clock
// (Options.PausePolicies), so every snapshot and backup the simulator holds is one the
// configuration declares, and the invariant counts them all, with no exclusion.

// soakCloneName is the clone's app name: the simulator counts accepted clone POSTs by it.
const soakCloneName = "soak-clone"

type soakDayTwo struct {
	app        bool
	appName    string
	policy     bool
	retention  int // the policy's snapshot_retention: a change is an update
	snapshot   bool
	bucket     bool // and its S3 key pair
	bucketName string
	backup     bool
	hookSource bool
	script     string
	hook       bool
	hookArg    string
	clone      bool
	fromBackup bool // the clone is taken from the backup, else from the live app
}

// randomDayTwo draws the day-two objects; those of the app only when cluster 0 is managed.
func (s *soak) randomDayTwo(managed0 bool) soakDayTwo {
	yes := func() bool { return s.rng.IntN(3) > 0 }
	d := soakDayTwo{
		appName: []string{"soak-app", "soak-app-renamed"}[s.rng.IntN(2)], retention: 1 + s.rng.IntN(3),
		bucketName: []string{"soak-bucket", "soak-bucket-renamed"}[s.rng.IntN(2)],
		script:     []string{"#!/bin/sh\necho one\n", "#!/bin/sh\necho two\n"}[s.rng.IntN(2)],
		hookArg:    []string{"freeze", "quiesce"}[s.rng.IntN(2)],
	}
	d.bucket, d.hookSource = yes(), yes()
	d.app = managed0 && yes()
	if d.app {
		d.policy, d.snapshot, d.backup, d.hook, d.clone = yes(), yes(), d.bucket && yes(), d.hookSource && yes(), yes()
		d.fromBackup = d.clone && d.backup && s.rng.IntN(2) == 0
	}
	return d
}

func (d soakDayTwo) String() string {
	var parts []string
	add := func(on bool, s string) {
		if on {
			parts = append(parts, s)
		}
	}
	add(d.app, fmt.Sprintf("app(%s)", d.appName))
	add(d.policy, fmt.Sprintf("policy(retention=%d)", d.retention))
	add(d.snapshot, "snapshot")
	add(d.bucket, fmt.Sprintf("bucket(%s)", d.bucketName))
	add(d.backup, "backup")
	add(d.hookSource, fmt.Sprintf("hooksource(%q)", strings.Fields(d.script)[2]))
	add(d.hook, fmt.Sprintf("hook(%s)", d.hookArg))
	add(d.clone && !d.fromBackup, "clone(live)")
	add(d.clone && d.fromBackup, "clone(backup)")
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " ")
}

// cloneNamespace is where the clone goes. A clone creates its namespace and unmanaging it
// leaves the namespace behind (research notes §4.8), so every new clone (none in state,
// or one that will be replaced: it or its sources tainted, or its source changed) needs a
// namespace that does not exist yet. It derives from the state, so a seed replays it.
func (s *soak) cloneNamespace(d soakDayTwo) string {
	tainted := map[string]bool{}
	inState := map[string]bool{}
	for _, o := range s.h.state() {
		inState[o.Type+"."+o.Name] = true
		tainted[o.Type+"."+o.Name] = o.Tainted
	}
	keep := s.cloneNS != "" && inState["astra_app.clone"] && !tainted["astra_app.clone"] && !tainted["astra_app.app"] &&
		s.cloneFromBackup == d.fromBackup && !(d.fromBackup && tainted["astra_app_backup.backup"])
	if !keep {
		s.cloneGen++
		s.cloneNS = fmt.Sprintf("soak-clone-%d", s.cloneGen)
	}
	s.cloneFromBackup = d.fromBackup
	return s.cloneNS
}

// dayTwoHCL renders d; the app's objects hang off astra_managed_cluster.m0.
func (s *soak) dayTwoHCL(d soakDayTwo) string {
	var b strings.Builder
	if d.bucket {
		fmt.Fprintf(&b, `resource "astra_s3_credential" "s3" {
  name              = "soak-s3"
  access_key_id     = "AKIA-SOAK"
  secret_access_key = "soak-secret"
}

resource "astra_bucket" "b" {
  name            = %q
  bucket_provider = "generic-s3"
  credential_id   = astra_s3_credential.s3.id
  s3              = { server_url = "s3.soak.example", bucket_name = "soak" }
}

`, d.bucketName)
	}
	if d.hookSource {
		fmt.Fprintf(&b, "resource \"astra_hook_source\" \"hs\" {\n  name   = \"soak-hook\"\n  source = %q\n}\n\n", d.script)
	}
	if !d.app {
		return b.String()
	}
	fmt.Fprintf(&b, `resource "astra_app" "app" {
  name                       = %q
  cluster_id                 = astra_managed_cluster.m0.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

`, d.appName)
	if d.policy {
		fmt.Fprintf(&b, `resource "astra_protection_policy" "p" {
  app_id             = astra_app.app.id
  name               = "soak-hourly"
  granularity        = "hourly"
  minute             = 0
  snapshot_retention = %d
  backup_retention   = 0
}

`, d.retention)
	}
	if d.snapshot {
		b.WriteString("resource \"astra_app_snapshot\" \"snap\" {\n  app_id = astra_app.app.id\n  name   = \"soak-snap\"\n}\n\n")
	}
	if d.backup {
		b.WriteString("resource \"astra_app_backup\" \"backup\" {\n  app_id    = astra_app.app.id\n  name      = \"soak-backup\"\n  bucket_id = astra_bucket.b.id\n}\n\n")
	}
	if d.hook {
		fmt.Fprintf(&b, `resource "astra_execution_hook" "pre" {
  name           = "soak-pre-snapshot"
  app_id         = astra_app.app.id
  hook_source_id = astra_hook_source.hs.id
  action         = "snapshot"
  stage          = "pre"
  arguments      = [%q]
}

`, d.hookArg)
	}
	if d.clone {
		ns := s.cloneNamespace(d)
		from := ""
		if d.fromBackup {
			from = "\n    backup_id         = astra_app_backup.backup.id"
		}
		fmt.Fprintf(&b, `resource "astra_app" "clone" {
  name                       = %q
  cluster_id                 = astra_managed_cluster.m0.id
  namespace_scoped_resources = [{ namespace = %q }]
  source = {
    app_id            = astra_app.app.id%s
    namespace_mapping = [{ source = "default", destination = %q }]
  }
}

`, soakCloneName, ns, from, ns)
	}
	return b.String()
}

// cloneOnce checks a step's clone POSTs: at most one accepted per step (the soak has one
// clone, created at most once per apply), and none when the clone in state is the one
// that was there before (nothing was created). clonesBefore is Clones before the apply.
func (s *soak) cloneOnce(clonesBefore int, cloneBefore string) error {
	sent := s.h.sim().Clones(soakCloneName) - clonesBefore
	after := s.stateClone()
	switch {
	case sent > 1:
		return fmt.Errorf("%d clone POSTs accepted in one apply of one clone (state %q, before %q)", sent, after, cloneBefore)
	case sent == 1 && after != "" && after == cloneBefore:
		return fmt.Errorf("a clone POST was accepted, yet the clone in state is still %s: a second clone was sent", after)
	}
	return nil
}

// stateClone is the clone's ID in state ("" if none), tainted or not.
func (s *soak) stateClone() string {
	for _, o := range s.h.state() {
		if o.Type == "astra_app" && o.Name == "clone" {
			return o.ID
		}
	}
	return ""
}

// noRestores: the soak declares no restore (OpenTofu has no actions and the configuration
// no astra_app_restore), so no app of the simulator may have been restored in place.
func (s *soak) noRestores() error {
	raw, err := s.h.sim().Snapshot()
	if err != nil {
		return err
	}
	var view struct {
		Apps map[string]struct {
			Name     string
			Restores int
		} `json:"apps"`
	}
	if err := json.Unmarshal(raw, &view); err != nil {
		return err
	}
	var restored []string
	for id, a := range view.Apps {
		if a.Restores > 0 {
			restored = append(restored, fmt.Sprintf("%s (%s) %d times", a.Name, id, a.Restores))
		}
	}
	sort.Strings(restored)
	if len(restored) > 0 {
		return fmt.Errorf("apps restored in place though no restore was asked for: %s", strings.Join(restored, ", "))
	}
	return nil
}
