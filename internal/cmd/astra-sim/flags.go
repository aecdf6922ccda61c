package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// config is what the command line asks for.
type config struct {
	addr      string
	tls       bool
	caOut     string
	kubeOut   string
	stateFile string
	readyFile string
	tokens    []tokenRole // in the order given; the first owner's is printed
	opts      astrasim.Options
	faults    []astrasim.Fault
	identity  identityFlags // issue 47 (identity_flags.go)
}

type tokenRole struct {
	token string
	role  astrasim.Role
}

// listFlag collects a repeatable flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

const usageHeader = `astra-sim runs a simulated NetApp Astra Control (the REST API of clouds, clusters,
managedClusters, credentials, storageClasses, buckets, apps, their protection policies,
snapshots and backups, execution hooks and hook sources, users, groups, role bindings,
API tokens and LDAP) for demos and CI.

Usage: astra-sim [flags]

On start it prints the ASTRA_* variables to point the provider at it (-ready-file also
writes them to a file once it serves; GET /healthz answers without a token). It stops
cleanly on SIGINT or SIGTERM, saving -state-file if one is given.

Exit status: 0 after a clean stop or -help; 1 when it cannot serve (address in use,
unreadable -state-file, unwritable output file); 2 for a bad flag or argument.

Flags:
`

const usageFooter = `
-delay NAME=DURATION (repeatable) sets how long a transition takes (default 0: at once):
  discover   a cluster added with a kubeconfig: discovering/pending -> running/unmanaged
  manage     POST managedClusters: managing/pending -> managed/running
  unmanage   DELETE managedClusters: deleting -> unmanaged
  remove     DELETE cluster: the record disappears
  recollect  a repaired credential: removed -> running
  bucket     a new bucket (or a bucket's new credential): pending -> available or failed
  app        POST apps: discovering -> ready (the POST answers discovering)
  snapshot   a snapshot: discovering -> running (half way) -> completed or failed
  backup     a backup: pending -> running (half way) -> completed or failed
  restore    a clone: provisioning -> discovering (half way) -> ready; an in-place
             restore: restoring -> discovering -> ready
  delete     DELETE of a snapshot or backup: deleting -> gone (its name and bucket held)
  ldap       a PUT of the LDAP setting: pending -> valid or error

Protection policies fire on a schedule clock (UTC) that -schedule-speed N runs N times
faster than real time: at 3600 an hourly policy fires every second, a daily one every 24
seconds. Missed firings are taken when the next request arrives (the last 64 at most).

-fail-next-snapshot APP[=REASON] and -fail-next-backup APP[=REASON] (repeatable) make the
next snapshot or backup of the app named APP (or with ID APP; it may be managed later) fail
with REASON, however it is taken (a POST or a policy). -fail-hook-source NAME (repeatable)
makes every run of the execution hooks of hook source NAME fail: the snapshot or backup
still completes, with hookState "failed" (hook failures are soft in Astra Control).
-hook-duration NAME=DURATION (repeatable) says how long the scripts of hook source NAME run:
one longer than -hook-timeout (25m, Astra Control Center's limit) fails, and so does the
snapshot or backup it ran for. Post-restore hooks run after clones and in-place restores.
-fail-next-restore APP[=REASON] (repeatable) makes the next in-place restore of APP, or the
clone that creates an app named APP, end with the app failed and REASON in its stateDetails.

Identity and access: every -token is a user with a role binding of its role (the first
owner's is the account owner). API tokens users create with POST /core/v1/users/ID/tokens
authenticate too, until deleted. On Astra Control Center releases (22.11, 23.05, 23.10,
24.02) the LDAP setting binds to a simulated directory at ldap.example.com (636 LDAPS,
389 LDAP), service account astra-bind@example.com or cn=astra-bind,ou=service,dc=example,
dc=com, password sim-bind-password; people under ou=users,dc=example,dc=com, groups
ops, payments and auditors under ou=groups,dc=example,dc=com. -ldap-user and -ldap-group
add entries; -namespace-label gives namespaces labels for role constraints such as
namespaces:kubernetesLabels='team=payments'.*, which -token-constraint puts on a -token's
binding: -token ci:member -token-constraint "ci=namespaces:kubernetesLabels='team=payments'.*"

-fault SPEC (repeatable) injects failures: METHOD:ROUTE:KIND[:OPTION...]
  METHOD   GET, POST, PUT, DELETE or *
  ROUTE    a spec path without /accounts/{account_id}, e.g.
           /topology/v1/clouds/{cloud_id}/clusters; * for any; a trailing * is a prefix
  KIND     latency=DURATION | 409 | 429 | 500 | 502 | 503 | reset | lost | concurrent-write
           (lost: the request is applied, then the connection is reset;
           409: problem 164, "retry later", or problem=N, a 409 of the catalogue;
           concurrent-write: just before the request is evaluated, another client
           writes the object (a cluster's tridentManagedStateDesired flips; a managed
           cluster's default storage class moves to the next; a cloud or credential
           gets the label concurrent-writer=N), so a PUT with the If-Match of an
           earlier GET fails with 412, problem 38)
  OPTIONS  times=N (fire N times, then stop)  p=PROBABILITY (0..1, deterministic under -seed)
           retry-after=DURATION (429/503)  latency=DURATION  problem=24|41 (503) or a 409's number
  Examples:
    -fault 'POST:/topology/v1/clouds/{cloud_id}/clusters:502:times=1'
    -fault 'GET:*:429:retry-after=2s:p=0.3'
    -fault '*:*:latency=200ms'
    -fault 'PUT:/topology/v1/clouds/{cloud_id}/clusters/{cluster_id}:concurrent-write:times=1'
`

// parseFlags reads the command line. -help prints the usage to out and returns
// flag.ErrHelp.
func parseFlags(args []string, out io.Writer) (*config, error) {
	fs := flag.NewFlagSet("astra-sim", flag.ContinueOnError)
	cfg := &config{}
	var tokens, delays, faults, unreachable, failHooks, hookDurations, failSnapshots, failBackups, failRestores, namespaces listFlag
	var strict, lenient bool
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8080", "listen `address` (port 0 picks a free port)")
	fs.StringVar(&cfg.opts.AccountID, "account-id", astrasim.DefaultAccountID, "the account `UUID` served")
	fs.Var(&tokens, "token", "an accepted API token, `token[:role]` (role viewer, member, admin or owner; default owner); repeatable (default "+astrasim.DefaultToken+":owner)")
	fs.StringVar(&cfg.opts.Release, "release", apispec.DefaultRelease, "API `release` to speak: "+strings.Join(apispec.Releases, ", "))
	fs.BoolVar(&cfg.tls, "tls", false, "serve HTTPS with a self-signed certificate")
	fs.StringVar(&cfg.caOut, "ca-out", "", "with -tls, write the certificate's PEM to `file` (for ASTRA_CA_CERTIFICATE_FILE)")
	fs.StringVar(&cfg.kubeOut, "kubeconfig-out", "", "write to `file` a kubeconfig (one cluster, one context, a fake token) that the simulator accepts for a new cluster, for examples and CI")
	fs.StringVar(&cfg.stateFile, "state-file", "", "load state from `file` at start (if it exists) and save it after every change and at exit (atomically)")
	fs.StringVar(&cfg.readyFile, "ready-file", "", "once serving, write the ASTRA_* variables to `file` as NAME=value lines (atomically; removed at exit), for a script to wait on")
	fs.Var(&delays, "delay", "transition delay `NAME=DURATION`; repeatable (see below)")
	fs.Var(&namespaces, "namespace", "a namespace `NAME` every cluster has besides Kubernetes' own and Trident's, for an app to protect; repeatable")
	fs.Var(&unreachable, "unreachable-bucket", "an object-store bucket `name` the simulator cannot reach: a bucket record for it goes to state failed; repeatable")
	fs.Var(&faults, "fault", "inject a fault, `SPEC`; repeatable (see below)")
	fs.Float64Var(&cfg.opts.ScheduleSpeed, "schedule-speed", 1, "run the protection policies' clock `N` times faster than real time (3600: an hourly policy fires every second)")
	fs.Var(&failSnapshots, "fail-next-snapshot", "make the next snapshot of an app fail, `APP[=REASON]` (app name or ID); repeatable")
	fs.Var(&failBackups, "fail-next-backup", "make the next backup of an app fail, `APP[=REASON]` (app name or ID); repeatable")
	fs.Var(&failRestores, "fail-next-restore", "make the next in-place restore of an app (or the clone creating it) fail, `APP[=REASON]` (app name or ID); repeatable")
	fs.Var(&failHooks, "fail-hook-source", "a hook source `name` whose execution hooks fail whenever they run; repeatable")
	fs.Var(&hookDurations, "hook-duration", "how long the scripts of a hook source run, `NAME=DURATION`; one over -hook-timeout fails, and its snapshot or backup with it; repeatable")
	fs.DurationVar(&cfg.opts.HookTimeout, "hook-timeout", 25*time.Minute, "how long an execution hook may run (Astra Control Center's limit: 25m)")
	fs.BoolVar(&strict, "strict", false, "validate request bodies strictly against the published schema (the default)")
	fs.BoolVar(&lenient, "lenient", false, "also accept the undocumented fields real clients send (connectorInstall, cloudID...), and store and answer back members no release has, as a newer server would")
	fs.BoolVar(&cfg.opts.PutReturnsBody, "put-returns-body", false, "answer PUT with 200 and the resource instead of 204")
	fs.BoolVar(&cfg.opts.NoETag, "no-etag", false, "answer without ETag headers, as older releases and some proxies do (If-Match is still honoured)")
	fs.BoolVar(&cfg.opts.PutEcho, "put-echo", false, "answer PUT with 200 and the request body plus the id, as the service answers a schedule PUT (NetApp's toolkit docs): a client must read the object back")
	fs.BoolVar(&cfg.opts.WeakETag, "weak-etag", false, "answer weak ETags (W/\"...\"), as a compressing proxy makes them; If-Match compares strongly, so they never match")
	fs.BoolVar(&cfg.opts.UnmanageDeletesBackups, "unmanage-deletes-backups", false, "unmanaging an app deletes its snapshots and backups and refuses while a backup of it failed, as Astra Control Center's UI documentation says; the default is NetApp's REST workflow: they stay, the backups in their bucket")
	fs.BoolVar(&cfg.opts.InFlightReady, "in-flight-ready", false, "answer state \"ready\" for a snapshot or backup still being taken, as NetApp's toolkit docs show the service answering (outside the spec's enum; \"ready\" is not \"completed\")")
	fs.BoolVar(&cfg.opts.ETagNeverMatches, "etag-never-matches", false, "refuse every If-Match but \"*\" with 412, as a service or proxy that issues tags it never matches")
	fs.Int64Var(&cfg.opts.Seed, "seed", 0, "`seed` of generated IDs and fault probabilities")
	cfg.identity.register(fs) // identity and access (issue 47)
	// A bad flag is returned (main prints it once, on stderr), not followed by the usage.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(out)
			fmt.Fprint(out, usageHeader)
			fs.PrintDefaults()
			fmt.Fprint(out, usageFooter)
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if strict && lenient {
		return nil, fmt.Errorf("-strict and -lenient exclude each other")
	}
	cfg.opts.Lenient = lenient
	if !apispec.IsRelease(cfg.opts.Release) {
		return nil, fmt.Errorf("-release %q: known releases are %s", cfg.opts.Release, strings.Join(apispec.Releases, ", "))
	}
	if cfg.caOut != "" && !cfg.tls {
		return nil, fmt.Errorf("-ca-out needs -tls")
	}
	if len(tokens) == 0 {
		tokens = listFlag{astrasim.DefaultToken + ":owner"}
	}
	cfg.opts.Tokens = map[string]astrasim.Role{}
	for _, t := range tokens {
		tok, roleName, hasRole := strings.Cut(t, ":")
		role := astrasim.RoleOwner
		if hasRole {
			r, err := astrasim.ParseRole(roleName)
			if err != nil {
				return nil, fmt.Errorf("-token: %w", err)
			}
			role = r
		}
		if tok == "" {
			return nil, fmt.Errorf("-token: the token must not be empty")
		}
		if _, dup := cfg.opts.Tokens[tok]; dup {
			return nil, fmt.Errorf("-token: a token is given twice")
		}
		cfg.opts.Tokens[tok] = role
		cfg.tokens = append(cfg.tokens, tokenRole{tok, role})
	}
	for _, d := range delays {
		name, value, ok := strings.Cut(d, "=")
		if !ok {
			return nil, fmt.Errorf("-delay %q: want NAME=DURATION", d)
		}
		dur, err := parseDuration(value)
		if err != nil {
			return nil, fmt.Errorf("-delay %q: %w", d, err)
		}
		if err := cfg.opts.Delays.SetDelay(name, dur); err != nil {
			return nil, fmt.Errorf("-delay: %w", err)
		}
	}
	for _, name := range unreachable {
		if name == "" {
			return nil, fmt.Errorf("-unreachable-bucket: the bucket name must not be empty")
		}
		cfg.opts.UnreachableBuckets = append(cfg.opts.UnreachableBuckets, name)
	}
	cfg.opts.Namespaces = namespaces
	if cfg.opts.ScheduleSpeed <= 0 {
		return nil, fmt.Errorf("-schedule-speed %v: must be a positive number", cfg.opts.ScheduleSpeed)
	}
	for _, name := range failHooks {
		if name == "" {
			return nil, fmt.Errorf("-fail-hook-source: the hook source name must not be empty")
		}
		cfg.opts.FailHookSources = append(cfg.opts.FailHookSources, name)
	}
	for _, spec := range hookDurations {
		name, value, ok := strings.Cut(spec, "=")
		d, err := time.ParseDuration(value)
		if !ok || name == "" || err != nil || d < 0 {
			return nil, fmt.Errorf("-hook-duration %q: want NAME=DURATION, such as freeze=30m", spec)
		}
		if cfg.opts.HookDurations == nil {
			cfg.opts.HookDurations = map[string]time.Duration{}
		}
		cfg.opts.HookDurations[name] = d
	}
	if cfg.opts.HookTimeout <= 0 {
		return nil, fmt.Errorf("-hook-timeout %v: must be positive", cfg.opts.HookTimeout)
	}
	for _, f := range []struct {
		kind  string
		specs listFlag
	}{{astrasim.FailSnapshot, failSnapshots}, {astrasim.FailBackup, failBackups}, {astrasim.FailRestore, failRestores}} {
		for _, spec := range f.specs {
			fn, err := astrasim.ParseFailNext(f.kind, spec)
			if err != nil {
				return nil, fmt.Errorf("-fail-next-%s %q: %w", f.kind, spec, err)
			}
			cfg.opts.FailNext = append(cfg.opts.FailNext, fn)
		}
	}
	if err := cfg.identity.apply(&cfg.opts); err != nil {
		return nil, err
	}
	for _, spec := range faults {
		f, err := astrasim.ParseFault(spec)
		if err != nil {
			return nil, fmt.Errorf("-fault: %w", err)
		}
		cfg.faults = append(cfg.faults, f)
	}
	return cfg, nil
}

// shownToken is the token printed for ASTRA_API_TOKEN: the first owner's, else the first.
func (c *config) shownToken() tokenRole {
	for _, t := range c.tokens {
		if t.role == astrasim.RoleOwner {
			return t
		}
	}
	return c.tokens[0]
}

// parseDuration accepts a Go duration ("1.5s", "200ms") or whole seconds ("3").
func parseDuration(v string) (time.Duration, error) {
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, nil
	}
	return time.ParseDuration(v)
}
