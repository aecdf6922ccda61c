package astrasim

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Role is an Astra Control user role. Owner > admin > member > viewer.
type Role string

// The four roles of Astra Control.
const (
	RoleViewer Role = "viewer"
	RoleMember Role = "member"
	RoleAdmin  Role = "admin"
	RoleOwner  Role = "owner"
)

// DefaultToken is the API token accepted when Options.Tokens is nil (role owner).
const DefaultToken = "astra-sim-0f3b6c2e9d7a4e51b8c4a6f1d2e3b4c5"

// DefaultAccountID is the account served when Options.AccountID is empty (a UUIDv4).
const DefaultAccountID = "7c1f3a52-9e4b-4d8a-b6e2-5f0a1c3d9b47"

// Options configures a simulator. The zero value is a strict 23.07 service with one owner
// token, immediate transitions and PUTs that answer 204.
type Options struct {
	Release        string          // "" -> "23.07"
	AccountID      string          // "" -> DefaultAccountID
	Tokens         map[string]Role // nil -> {DefaultToken: RoleOwner}
	Lenient        bool            // accept the undocumented request fields real clients send
	PutReturnsBody bool            // PUT answers 200 with the resource instead of 204
	NoETag         bool            // answers carry no ETag (older releases, proxies that strip it); If-Match is still honoured
	// PutEcho answers a PUT with 200 and the request body plus the object's id, as NetApp's
	// toolkit docs show the real service answering a schedule PUT: an answer a client must
	// not take for the object (it lacks what the service computes).
	PutEcho bool
	// WeakETag answers weak ETags (W/"…"), as a compressing proxy makes them. If-Match
	// compares strongly (RFC 9110), so a weak tag sent back never matches.
	WeakETag bool
	// ETagNeverMatches refuses every If-Match but "*" with 412: a service or proxy that
	// issues tags it never matches, which a client must not let lock it out.
	ETagNeverMatches bool
	Delays           Delays // zero: every transition happens at once
	Seed             int64  // generated IDs and fault probabilities derive from it
	Now              func() time.Time
	// UnreachableBuckets are object-store bucket names the simulator cannot reach: a bucket
	// record for one goes to state failed, with stateDetails saying so.
	UnreachableBuckets []string
	// ScheduleSpeed runs the clock protection policies fire on faster than real time: N
	// simulated seconds per real second (3600: an hourly policy fires every real second).
	// 0 means 1, real time. Delays are never scaled.
	ScheduleSpeed float64
	// Namespaces are namespaces every cluster has besides Kubernetes' own (default,
	// kube-system, ...) and Trident's: workloads' namespaces, for apps to protect.
	Namespaces []string
	// PausePolicies stops the schedule clock: protection policies never fire. For tests that
	// assert the exact snapshots and backups an app has while running on the real clock
	// (an hourly policy at minute 0 would otherwise fire when a test crosses the hour).
	PausePolicies bool
	// UnmanageDeletesBackups selects Astra Control Center's documentation (use/unmanage:
	// unmanaging an app deletes its snapshots and backups; an app holding a failed backup
	// refuses to go, 409/142) over the default, NetApp's REST workflow "Unmanage an app"
	// (wf_unmanage_app: its backups and snapshots are not removed, the backups stay in their
	// bucket and keep it in use). unmanage.go has both.
	UnmanageDeletesBackups bool
	// InFlightReady answers state "ready" for a snapshot or backup still being taken (its
	// first state and "running"), as NetApp's toolkit docs show the service answering
	// (NetApp/netapp-astra-toolkits, docs: snapshots and backups listed "ready" while in
	// flight), outside the 24.02 spec's enum. Internally the run goes on as usual: a client
	// must not take "ready" for "completed".
	InFlightReady bool
	// FailHookSources are hook source names whose execution hooks fail whenever they run:
	// the snapshot or backup they run for reports hookState "failed" (hookruns.go).
	FailHookSources []string
	// HookDurations are how long the scripts of these hook sources run (by name; scripts
	// never run here); one longer than HookTimeout fails, and so does the snapshot or backup
	// it ran for (hooktimeout.go).
	HookDurations map[string]time.Duration
	// HookTimeout is how long a hook may run: 25 minutes, Astra Control Center's limit,
	// unless set.
	HookTimeout time.Duration
	// FailNext makes the next snapshot or backup of an app fail (failnext.go); Sim.FailNext
	// adds more while it runs.
	FailNext []FailNext
	// Directory adds people and groups to the simulated LDAP directory (SeededDirectory;
	// directory.go); Sim.AddDirectoryEntry adds more while it runs.
	Directory []DirectoryEntry
	// NamespaceLabels are Kubernetes labels of namespaces by name (on every cluster), for
	// kubernetesLabels role constraints; Sim.SetNamespaceLabels sets more while it runs.
	NamespaceLabels map[string]map[string]string
	// TokenConstraints are role constraints of the bindings of configured tokens' users
	// (by token; none: ["*"]), e.g. namespaces:kubernetesLabels='team=payments'.*
	TokenConstraints map[string][]string

	// OnResponseViolation, when set, checks every response body against the release's
	// published response schema and reports each violation. Tests set it to fail;
	// production leaves it nil (the check costs a schema walk per response).
	OnResponseViolation func(method, route string, status int, err error)
}

// Delays are the durations of the asynchronous transitions. -delay NAME=DURATION of the
// program maps NAME (discover, manage, unmanage, remove, recollect, bucket, app, snapshot,
// backup, restore, delete) to these fields.
type Delays struct {
	Discover  time.Duration // POST cluster (kubeconfig): discovering/pending -> running/unmanaged; new cloud pending -> running
	Manage    time.Duration // POST managedClusters: managing/pending -> managed/running
	Unmanage  time.Duration // DELETE managedClusters: deleting -> unmanaged
	Remove    time.Duration // DELETE cluster: the record disappears
	Recollect time.Duration // a repaired credential: removed -> running
	Bucket    time.Duration // POST bucket, or a PUT with a new credential: pending -> available or failed
	App       time.Duration // POST apps: pending -> discovering (half way) -> ready
	Snapshot  time.Duration // a snapshot: discovering -> running (half way) -> completed or failed
	Backup    time.Duration // a backup: pending -> running (half way) -> completed or failed
	Delete    time.Duration // DELETE of a snapshot or backup: deleting -> gone (zero: gone at once)
	Restore   time.Duration // a clone: provisioning -> discovering (half way) -> ready; an in-place restore: restoring -> discovering -> ready (or failed)
	LDAP      time.Duration // a PUT of the LDAP setting: pending -> valid or error (ldap.go)
}

// SetDelay sets one delay by its program name.
func (d *Delays) SetDelay(name string, v time.Duration) error {
	if v < 0 {
		return fmt.Errorf("delay %s must not be negative", name)
	}
	switch strings.ToLower(name) {
	case "discover":
		d.Discover = v
	case "manage":
		d.Manage = v
	case "unmanage":
		d.Unmanage = v
	case "remove":
		d.Remove = v
	case "recollect":
		d.Recollect = v
	case "bucket":
		d.Bucket = v
	case "app":
		d.App = v
	case "snapshot":
		d.Snapshot = v
	case "backup":
		d.Backup = v
	case "restore":
		d.Restore = v
	case "delete":
		d.Delete = v
	case "ldap":
		d.LDAP = v
	default:
		return fmt.Errorf("unknown delay %q; known: discover, manage, unmanage, remove, recollect, bucket, app, snapshot, backup, restore, delete, ldap", name)
	}
	return nil
}

// withDefaults fills the documented defaults and checks what was given.
func (o Options) withDefaults() (Options, error) {
	if o.Release == "" {
		o.Release = apispec.DefaultRelease
	}
	if !apispec.IsRelease(o.Release) {
		return o, fmt.Errorf("unknown API release %q; known releases: %s", o.Release, strings.Join(apispec.Releases, ", "))
	}
	if o.AccountID == "" {
		o.AccountID = DefaultAccountID
	}
	if !isIdentifier(o.AccountID) {
		return o, fmt.Errorf("account ID %q is not a UUID", o.AccountID)
	}
	if o.Tokens == nil {
		o.Tokens = map[string]Role{DefaultToken: RoleOwner}
	}
	if len(o.Tokens) == 0 {
		return o, fmt.Errorf("at least one API token is required")
	}
	for tok, role := range o.Tokens {
		if tok == "" || strings.ContainsAny(tok, " \t\r\n") {
			return o, fmt.Errorf("an API token must be non-empty and contain no white space")
		}
		if rank(role) == 0 {
			return o, fmt.Errorf("unknown role %q; known roles: viewer, member, admin, owner", role)
		}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	for _, n := range o.Namespaces {
		if !namespacePattern.MatchString(n) {
			return o, fmt.Errorf("namespace %q is not a DNS-1123 label (lower case letters, digits and '-', at most 63)", n)
		}
	}
	if o.ScheduleSpeed < 0 || math.IsNaN(o.ScheduleSpeed) || math.IsInf(o.ScheduleSpeed, 0) {
		return o, fmt.Errorf("the schedule speed must be a positive number of simulated seconds per second")
	}
	if o.ScheduleSpeed == 0 {
		o.ScheduleSpeed = 1
	}
	for tok, cs := range o.TokenConstraints {
		if _, ok := o.Tokens[tok]; !ok {
			return o, fmt.Errorf("role constraints are given for a token that is not configured")
		}
		for _, c := range cs {
			if reason := checkConstraint(c); reason != "" {
				return o, fmt.Errorf("role constraint %q: %s", c, reason)
			}
		}
	}
	for _, e := range o.Directory {
		if _, err := e.validate(); err != nil {
			return o, err
		}
	}
	for _, f := range o.FailNext {
		if err := f.validate(); err != nil {
			return o, err
		}
	}
	return o, nil
}

// rank orders roles; 0 is not a role.
func rank(r Role) int {
	switch r {
	case RoleViewer:
		return 1
	case RoleMember:
		return 2
	case RoleAdmin:
		return 3
	case RoleOwner:
		return 4
	}
	return 0
}

// ParseRole reads a role name case-insensitively.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if rank(r) == 0 {
		return "", fmt.Errorf("unknown role %q; known roles: viewer, member, admin, owner", s)
	}
	return r, nil
}

// sortedTokens lists tokens in a stable order, so user IDs do not depend on map order.
func sortedTokens(tokens map[string]Role) []string {
	out := make([]string, 0, len(tokens))
	for t := range tokens {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
