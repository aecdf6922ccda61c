package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// The replication relationship through the CLI: the cycle with the actions (Terraform
// 1.14+), and the faults of the new routes (lost answers, 502/503/429, Ctrl-C during the
// failover wait, a concurrent writer with a saved plan, a source cluster that is down).

// drHCL is two managed clusters ("prod", "dr"), the app "web" on prod and its mirror "dr"
// to the dr cluster with desired_state desired; extra is appended.
func drHCL(h *cliHarness, desired, extra string) string {
	var b strings.Builder
	for _, side := range []string{"prod", "dr"} {
		kube := writeKubeconfig(h.t, side, "https://"+side+".k8s.example:6443")
		fmt.Fprintf(&b, `
resource "astra_kubeconfig_credential" %[1]q {
  name       = %[1]q
  kubeconfig = file(%[2]q)
}

resource "astra_cluster" %[1]q {
  cloud_id      = %[3]q
  credential_id = astra_kubeconfig_credential.%[1]s.id
}

resource "astra_managed_cluster" %[1]q {
  cluster_id = astra_cluster.%[1]s.id
}
`, side, kube, h.sim().Seeds().PrivateCloudID)
	}
	fmt.Fprintf(&b, `
resource "astra_app" "web" {
  name                       = "web"
  cluster_id                 = astra_managed_cluster.prod.id
  namespace_scoped_resources = [{ namespace = "default" }]
}

resource "astra_app_mirror" "dr" {
  source_app_id          = astra_app.web.id
  destination_cluster_id = astra_managed_cluster.dr.id
  desired_state          = %q
}
%s`, desired, extra)
	return b.String()
}

// mirrorOf reads the harness's relationship from the simulator.
func (h *cliHarness) mirrorOf() *astra.AppMirror {
	h.t.Helper()
	m, err := h.apiClient().GetAppMirror(context.Background(), h.stateIDOf("astra_app_mirror", "dr"))
	if err != nil {
		h.t.Fatalf("reading the relationship: %v", err)
	}
	return m
}

// expectMirror checks the relationship's state and current source app.
func (h *cliHarness) expectMirror(what, state, source string) {
	h.t.Helper()
	if m := h.mirrorOf(); m.State != state || (source != "" && m.SourceAppID != source) {
		h.t.Fatalf("%s: relationship %s from %s, want %s from %s", what, m.State, m.SourceAppID, state, source)
	}
}

// mirrorPuts is how many PUTs the relationship received.
func (h *cliHarness) mirrorPuts() int { return h.sim().Count(http.MethodPut, routeAppMirror) }

func mirrorHarness(t *testing.T, opts astrasim.Options) *cliHarness {
	opts.Delays.Mirror, opts.Delays.Failover = 300*time.Millisecond, 400*time.Millisecond
	return newCLIHarness(t, opts, "")
}

// TestAccActions_appMirrorCycle: establish → failover (argument) → reverse (action) →
// failover back (argument) → resync (action), under Terraform 1.14+. After the reverse the
// configuration plans no replacement: only the failover its desired_state still asks for,
// with the warning naming what becomes writable; the documented one-line edit
// (desired_state = "established") plans nothing. One PUT per step.
func TestAccActions_appMirrorCycle(t *testing.T) {
	skipWithoutActions(t)
	h := mirrorHarness(t, astrasim.Options{})
	actions := `
action "astra_app_mirror_reverse" "now" {
  config {
    mirror_id = astra_app_mirror.dr.id
  }
}

action "astra_app_mirror_resync" "keep_prod" {
  config {
    mirror_id     = astra_app_mirror.dr.id
    source_app_id = astra_app.web.id
  }
}
`
	h.write(drHCL(h, "established", actions))
	expectActionOutput(t, "establishing", h.apply(), false)
	web := h.stateIDOf("astra_app", "web")
	h.expectMirror("after create", "established", web)
	replica := h.mirrorOf().DestinationAppID

	h.write(drHCL(h, "failed_over", actions))
	expectActionOutput(t, "the failover", h.apply(), false, "FAILS OVER", "App "+replica, "becomes WRITABLE")
	h.expectMirror("after the failover", "failedOver", web)
	if n := h.mirrorPuts(); n != 1 {
		t.Fatalf("%d PUTs after the failover, want 1", n)
	}

	expectActionOutput(t, "the reverse", h.apply("-invoke=action.astra_app_mirror_reverse.now"), false,
		"establishing", "established: app "+replica)
	h.expectMirror("after the reverse", "established", replica)
	// The configuration still says failed_over: the plan is the failover back, in place.
	r := h.plan()
	expectActionOutput(t, "the plan after the reverse", r, false, "FAILS OVER", "App "+web, "1 to change, 0 to destroy")
	if strings.Contains(r.out, "must be replaced") {
		t.Fatalf("a replacement after the reverse:\n%s", r.out)
	}
	h.write(drHCL(h, "established", actions)) // the documented one-line edit
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}
	h.write(drHCL(h, "failed_over", actions))
	expectActionOutput(t, "the failover back", h.apply(), false, "App "+web)
	h.expectMirror("after the failover back", "failedOver", replica)

	// Resync keeping prod's (web's) data: web replicates to the replica again.
	expectActionOutput(t, "the resync", h.apply("-invoke=action.astra_app_mirror_resync.keep_prod"), false, "established: app "+web)
	h.expectMirror("after the resync", "established", web)
	h.write(drHCL(h, "established", actions))
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}
	if posts, puts, dels := h.sim().Count(http.MethodPost, routeAppMirrors), h.mirrorPuts(),
		h.sim().Count(http.MethodDelete, routeAppMirror); posts != 1 || puts != 4 || dels != 0 {
		t.Fatalf("POSTs %d, PUTs %d, DELETEs %d; want 1, 4, 0", posts, puts, dels)
	}
	// Invoked again, the resync has nothing to do: nothing is sent.
	expectActionOutput(t, "the resync again", h.apply("-invoke=action.astra_app_mirror_resync.keep_prod"), false)
	if n := h.mirrorPuts(); n != 4 {
		t.Fatalf("%d PUTs after a resync with nothing to do", n)
	}
}

// TestAccAppMirror_routesFault: the new routes under faults. A lost answer to the POST is
// adopted (one relationship); a concurrent write (412 on If-Match), 502, 503 and 429 on the
// failover's PUT are retried and fail over once; Ctrl-C during the failover wait leaves the relationship failing over in state,
// and the next apply only waits; a saved plan applied after another writer failed the
// relationship over sends nothing. Nothing duplicated, orphaned or failed over twice.
func TestAccAppMirror_routesFault(t *testing.T) {
	h := mirrorHarness(t, astrasim.Options{})
	sim := h.sim()

	sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: routeAppMirrors, Kind: astrasim.FaultLostAnswer, Times: 1})
	h.write(drHCL(h, "established", ""))
	expectActionOutput(t, "a create whose answer is lost", h.apply(), false)
	if n := sim.Fired(http.MethodPost, routeAppMirrors, astrasim.FaultLostAnswer); n != 1 {
		t.Fatalf("the lost answer fired %d times", n)
	}
	mirrors, err := h.apiClient().ListAppMirrors(context.Background(), astra.ListOptions{})
	if err != nil || len(mirrors) != 1 || mirrors[0].ID != h.stateIDOf("astra_app_mirror", "dr") {
		t.Fatalf("relationships after the lost answer: %+v (%v)", mirrors, err)
	}

	// 502, 503 and 429 on the failover's PUT: retried, one failover. Another writer just
	// before it: the PUT carries the If-Match of its read, is refused (412), and the step is
	// decided again from a fresh read.
	faults := []astrasim.FaultKind{astrasim.FaultConcurrentWrite, astrasim.FaultBadGateway, astrasim.FaultUnavailable,
		astrasim.FaultTooManyRequests}
	for _, kind := range faults {
		sim.AddFault(astrasim.Fault{Method: http.MethodPut, Route: routeAppMirror, Kind: kind, Times: 1})
	}
	h.write(drHCL(h, "failed_over", ""))
	expectActionOutput(t, "a failover through a concurrent write, 502, 503 and 429", h.apply(), false)
	for _, kind := range faults {
		if n := sim.Fired(http.MethodPut, routeAppMirror, kind); n != 1 {
			t.Fatalf("fault %s fired %d times", kind, n)
		}
	}
	h.expectMirror("after the retried failover", "failedOver", "")
	if err := h.planIsEmpty(); err != nil {
		t.Fatal(err)
	}

	// A lost answer to the resync's PUT: the client sends the PUT again (a PUT is idempotent),
	// which the service takes as no change; the provider sends nothing more.
	puts := h.mirrorPuts()
	sim.AddFault(astrasim.Fault{Method: http.MethodPut, Route: routeAppMirror, Kind: astrasim.FaultLostAnswer, Times: 1})
	h.write(drHCL(h, "established", ""))
	expectActionOutput(t, "a resync whose answer is lost", h.apply(), false, "RESYNCS")
	if n, p := sim.Fired(http.MethodPut, routeAppMirror, astrasim.FaultLostAnswer), h.mirrorPuts()-puts; n != 1 || p != 2 {
		t.Fatalf("lost answers %d, PUTs %d (want 1, and 2: the lost one and its retry)", n, p)
	}
	h.expectMirror("after the resync", "established", "")

	// Ctrl-C while the failover is waited for: state keeps failed_over, and the next apply
	// sends nothing (the service goes on failing over).
	puts = h.mirrorPuts()
	h.write(drHCL(h, "failed_over", ""))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r := h.start(ctx, interruptWhen(func() bool { return h.mirrorPuts() > puts }),
		"apply", "-auto-approve", "-input=false", "-no-color")
	if r.err == nil {
		t.Fatalf("the interrupted apply succeeded:\n%s", r.out)
	}
	expectActionOutput(t, "the apply after the interrupt", h.apply(), false)
	h.expectMirror("after the interrupted failover", "failedOver", "")
	if p := h.mirrorPuts() - puts; p != 1 {
		t.Fatalf("%d failover PUTs around the interrupt, want 1", p)
	}

	// A concurrent writer: a plan saved to resync, then another writer resyncs first; the
	// saved plan's apply only waits for the relationship and sends nothing.
	h.write(drHCL(h, "established", ""))
	planned := h.run(context.Background(), "plan", "-out=resync.tfplan", "-input=false", "-no-color")
	expectActionOutput(t, "the saved plan", planned, false, "RESYNCS")
	m := h.mirrorOf()
	if _, err := h.apiClient().ChangeAppMirror(context.Background(), m.ID, astra.AppMirrorChange{StateDesired: "established",
		SourceAppID: m.SourceAppID, SourceClusterID: m.SourceClusterID, DestinationAppID: m.DestinationAppID,
		DestinationClusterID: m.DestinationClusterID}); err != nil {
		t.Fatal(err)
	}
	puts = h.mirrorPuts()
	expectActionOutput(t, "the saved plan after another writer", h.run(context.Background(), "apply", "-input=false", "-no-color",
		"resync.tfplan"), false)
	if p := h.mirrorPuts() - puts; p != 0 {
		t.Fatalf("the saved plan sent %d PUTs after the other writer's resync", p)
	}
	h.expectMirror("after the saved plan", "established", "")
	if all, err := h.apiClient().ListAppMirrors(context.Background(), astra.ListOptions{}); err != nil || len(all) != 1 {
		t.Fatalf("relationships at the end: %+v (%v)", all, err)
	}
}

// TestAccAppMirror_failoverSourceDownFault: a disaster. The source cluster is unreachable
// (its kubeconfig credential's API server gone), so a full refresh reports it; the failover
// targets the relationship alone (-target, as the guide says) and succeeds with the source
// down: the destination app is started and the relationship failedOver, its health naming
// the source's trouble.
func TestAccAppMirror_failoverSourceDownFault(t *testing.T) {
	h := mirrorHarness(t, astrasim.Options{})
	h.write(drHCL(h, "established", ""))
	expectActionOutput(t, "establishing", h.apply(), false)
	prod := h.stateIDOf("astra_managed_cluster", "prod")
	if err := h.sim().FailCluster(prod, "the data centre is down (injected)"); err != nil {
		t.Fatal(err)
	}
	h.write(drHCL(h, "failed_over", ""))
	expectActionOutput(t, "the failover with the source down", h.apply("-target=astra_app_mirror.dr"), false, "FAILS OVER")
	m := h.mirrorOf()
	if m.State != "failedOver" {
		t.Fatalf("after the failover with the source down: %+v", m)
	}
	_, described := m.Describe()
	if !strings.Contains(described, "unreachable") && !strings.Contains(described, "reached") {
		t.Fatalf("the health does not name the source's trouble: %s", described)
	}
	if n := h.mirrorPuts(); n != 1 {
		t.Fatalf("%d PUTs for one failover", n)
	}
}

// TestAccAppMirror_destroyReadingsHarness: destroy deletes the relationship under both
// readings of what else that removes (research notes §4.12). The conservative one (the
// simulator's default, Center's docs): the replica app stays, and the destroy warns naming
// it, never unmanaging it. The spec's: the replica goes with the relationship, no warning.
// Either way the rest of the configuration is destroyed afterwards.
func TestAccAppMirror_destroyReadingsHarness(t *testing.T) {
	for _, removes := range []bool{false, true} {
		t.Run(fmt.Sprintf("removesDestination=%v", removes), func(t *testing.T) {
			h := mirrorHarness(t, astrasim.Options{MirrorDeleteRemovesDestination: removes})
			h.write(drHCL(h, "established", ""))
			expectActionOutput(t, "establishing", h.apply(), false)
			replica := h.mirrorOf().DestinationAppID
			// The relationship alone: a replica that remains keeps its cluster managed, so a
			// destroy of the clusters as well is refused at plan time, naming the replica.
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			r := h.run(ctx, "destroy", "-auto-approve", "-input=false", "-no-color", "-target=astra_app_mirror.dr")
			_, err := h.apiClient().GetApp(context.Background(), replica)
			if removes {
				expectActionOutput(t, "the destroy", r, false)
				if strings.Contains(r.out, "Replica app remains") || !astra.IsNotFound(err) {
					t.Fatalf("the spec's reading: the replica %s should be gone without a warning (read: %v):\n%s", replica, err, r.out)
				}
			} else {
				expectActionOutput(t, "the destroy", r, false, "Replica app remains", replica, "never unmanages it")
				if err != nil {
					t.Fatalf("the conservative reading: the replica %s should remain: %v", replica, err)
				}
			}
			if all, err := h.apiClient().ListAppMirrors(context.Background(), astra.ListOptions{}); err != nil || len(all) != 0 {
				t.Fatalf("relationships after the destroy: %+v (%v)", all, err)
			}
			if !removes { // what the warning says to do
				if err := h.apiClient().DeleteApp(context.Background(), replica); err != nil {
					t.Fatal(err)
				}
			}
			expectActionOutput(t, "destroying the rest", h.destroy(), false)
		})
	}
}

// TestAccReplication_dataSources: astra_app_mirrors lists the relationship by either app
// and either cluster (none for an unrelated filter); astra_storage_backends lists an ONTAP
// backend for each managed cluster, managed and SnapMirror-capable, and refuses an unknown
// cluster naming cluster_id.
func TestAccReplication_dataSources(t *testing.T) {
	h := mirrorHarness(t, astrasim.Options{})
	reads := `
data "astra_app_mirrors" "by_app" {
  app_id = astra_app.web.id
  depends_on = [astra_app_mirror.dr]
}

data "astra_app_mirrors" "by_dr" {
  cluster_id = astra_managed_cluster.dr.id
  depends_on = [astra_app_mirror.dr]
}

data "astra_storage_backends" "all" {
  cluster_id = astra_managed_cluster.prod.id
}

output "by_app" { value = [for m in data.astra_app_mirrors.by_app.mirrors : "${m.id}/${m.state}/${m.source_app_id}"] }
output "by_dr" { value = length(data.astra_app_mirrors.by_dr.mirrors) }
output "backends" {
  value = [for b in data.astra_storage_backends.all.backends : "${b.backend_type}/${b.managed_state}/${b.snapmirror}"]
}
`
	h.write(drHCL(h, "established", reads))
	expectActionOutput(t, "the first apply", h.apply(), false)
	expectActionOutput(t, "the reads", h.apply(), false)
	out := h.run(context.Background(), "output", "-json")
	m := h.mirrorOf()
	for _, want := range []string{m.ID + "/established/" + m.SourceAppID, `"by_dr":{"sensitive":false,"type":"number","value":1}`,
		`"ontap/managed/true","ontap/managed/true"`} {
		if !strings.Contains(strings.Join(strings.Fields(out.out), ""), strings.ReplaceAll(want, " ", "")) {
			t.Fatalf("outputs lack %s:\n%s", want, out.out)
		}
	}
	h.write(drHCL(h, "established", `
data "astra_storage_backends" "unknown" {
  cluster_id = "4b2d0c55-8a7e-4f0e-9d51-2c8f3b6a1e07"
}
`))
	expectActionOutput(t, "an unknown cluster", h.plan(), true, "Unknown managed cluster", "cluster_id")
}

// TestAccAppMirror_establishTimeoutFault: a relationship that cannot establish (its
// destination cluster down) has no failed state: the create waits until timeouts.create and
// then fails with the health details Astra Control gives (the cluster it cannot reach);
// the relationship stays in state, tainted, so nothing is orphaned (the next apply
// replaces it).
func TestAccAppMirror_establishTimeoutFault(t *testing.T) {
	h := mirrorHarness(t, astrasim.Options{})
	h.write(drHCL(h, "established", ""))
	expectActionOutput(t, "the clusters", h.apply("-target=astra_app.web", "-target=astra_managed_cluster.dr"), false)
	dr := h.stateIDOf("astra_managed_cluster", "dr")
	if err := h.sim().FailCluster(dr, "the DR site lost power (injected)"); err != nil {
		t.Fatal(err)
	}
	h.write(strings.Replace(drHCL(h, "established", ""), `desired_state          = "established"`,
		`desired_state          = "established"
  timeouts               = { create = "3s" }`, 1))
	r := h.apply("-target=astra_app_mirror.dr")
	expectActionOutput(t, "a create that cannot establish", r, true, "Replication not established", "Timed out after 3s",
		"healthState critical", "Cluster unreachable: Managed cluster dr can't be reached")
	for _, o := range h.state() {
		if o.Type == "astra_app_mirror" && !o.Tainted {
			t.Fatalf("the relationship is in state but not tainted")
		}
	}
	if all, err := h.apiClient().ListAppMirrors(context.Background(), astra.ListOptions{}); err != nil || len(all) != 1 {
		t.Fatalf("relationships after the timeout: %+v (%v)", all, err)
	}
}
