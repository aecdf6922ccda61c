package astrasim

import (
	"strings"
	"testing"
	"time"
)

// tkReplicationSchedule is the schedule actoolkit posts right after the AppMirror POST
// (research notes §4.12, §4.15): custom, every 10 minutes from minute 5, replicate "true".
func tkReplicationSchedule() map[string]any {
	return map[string]any{"type": "application/astra-schedule", "version": "1.3", "name": "custom schedule", "enabled": "true",
		"granularity": "custom", "replicate": "true", "snapshotRetention": "0", "backupRetention": "0",
		"recurrenceRule": "DTSTART:20220101T000500Z\nRRULE:FREQ=MINUTELY;INTERVAL=10",
		"minute":         nil, "hour": nil, "dayOfWeek": nil, "dayOfMonth": nil}
}

// unreach moves a cluster's credential to a server the simulator cannot reach (the
// existing unreachable-cluster fault: a host under ".invalid") or back.
func (d *drEnv) unreach(clusterID string, off bool) {
	d.t.Helper()
	c := d.sim.st.Clusters[clusterID]
	server := "https://" + c.Name + ".example.com:6443"
	if off {
		server = "https://" + c.Name + ".invalid:6443"
	}
	d.put("/core/v1/credentials/"+c.CredentialID, kubeconfigBody(c.Name, server)).expect(204)
}

// TestReplicatingSchedule: the schedule is accepted while establishing; each firing of the
// schedule clock replicates a snapshot: transferring for Delays.Transfer, then idle with a
// new completed replication in stateDetails.
func TestReplicatingSchedule(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, ScheduleSpeed: 60, Delays: Delays{Mirror: time.Second, Transfer: 2 * time.Second}})
	id := d.establish("1.1")
	path := "/k8s/v1/appMirrors/" + id
	sc := d.post("/k8s/v1/apps/"+d.app+"/schedules", tkReplicationSchedule()).expect(201)
	if sc.str("replicate") != "true" || sc.str("granularity") != "custom" {
		t.Fatalf("schedule answer: %s", sc.raw)
	}
	// As actoolkit sends it (research notes §4.15): version 1.2, minute and hour "0".
	tk := tkReplicationSchedule()
	tk["version"], tk["minute"], tk["hour"], tk["name"] = "1.2", "0", "0", "replication-schedule-tk"
	d.post("/k8s/v1/apps/"+d.app+"/schedules", tk).expect(201)
	d.get(path).expectMirror("establishing", "normal", "idle")
	clock.advance(time.Second)
	first := d.get(path).expectMirror("established", "normal", "idle").lastReplicated()
	// 12:00:01 real is 12:01 on the schedule clock: the first firing is at 12:05 (real
	// 12:00:05), so the transfer runs until 12:00:07.
	clock.advance(4500 * time.Millisecond)
	m := d.get(path).expectMirror("established", "normal", "transferring")
	if !strings.Contains(string(m.raw), "Snapshot replication in progress") {
		t.Fatalf("transferStateDetails: %s", m.raw)
	}
	clock.advance(2 * time.Second)
	second := d.get(path).expectMirror("established", "normal", "idle").lastReplicated()
	if first == "" || second == "" || first == second {
		t.Fatalf("snapshots replicated: %q then %q", first, second)
	}
	// Without a relationship a replicating schedule is refused (409/153).
	other := d.post("/k8s/v2/apps", appBody("other", d.src, "default")).expect(201).str("id")
	d.get("/k8s/v2/apps/" + other)
	d.post("/k8s/v1/apps/"+other+"/schedules", tkReplicationSchedule()).problem(153)
	// Bare RECUR rules (FREQ=...;INTERVAL=N) are RFC 5545 rules too.
	bare := tkReplicationSchedule()
	bare["recurrenceRule"], bare["replicate"], bare["name"] = "FREQ=MINUTELY;INTERVAL=5", "false", "bare"
	d.post("/k8s/v1/apps/"+other+"/schedules", bare).expect(201)
}

// TestTransferFailures: an injected transfer failure keeps transferState "transferring"
// with the failure in transferStateDetails and healthState critical, until the next
// firing retries it; -fail-transfers fails every attempt; an unreachable destination too.
func TestTransferFailures(t *testing.T) {
	clock, d, path := replicatingDR(t)
	if err := d.sim.FailNextRun(FailNext{Kind: FailTransfer, App: "wordpress", Reasons: []string{"SnapMirror: the destination volume is full"}}); err != nil {
		t.Fatal(err)
	}
	clock.advance(5 * time.Second) // the firing at 12:05
	m := d.get(path).expectMirror("established", "critical", "transferring")
	for _, want := range []string{`"title":"Snapshot replication failed"`, "the destination volume is full"} {
		if !strings.Contains(string(m.raw), want) {
			t.Fatalf("missing %s: %s", want, m.raw)
		}
	}
	clock.advance(10 * time.Second) // the firing at 12:15 retries
	d.get(path).expectMirror("established", "normal", "idle")

	// The destination cannot be reached: the next transfer fails, naming it.
	d.unreach(d.dst, true)
	clock.advance(10 * time.Second)
	m = d.get(path).expectMirror("established", "critical", "transferring")
	if !strings.Contains(string(m.raw), "Managed cluster dr can't be reached") {
		t.Fatalf("health details: %s", m.raw)
	}
	d.unreach(d.dst, false)
	clock.advance(10 * time.Second)
	d.get(path).expectMirror("established", "normal", "idle")
}

// TestFailTransfersOption: every attempt fails while the app is named.
func TestFailTransfersOption(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, ScheduleSpeed: 60, FailTransfers: []string{"wordpress"}})
	id := d.establish("1.0")
	d.post("/k8s/v1/apps/"+d.app+"/schedules", tkReplicationSchedule()).expect(201)
	for i := 0; i < 3; i++ {
		clock.advance(10 * time.Second)
		m := d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "critical", "transferring")
		if n := strings.Count(string(m.raw), "injected by the simulator"); n < 2 {
			t.Fatalf("attempt %d: %s", i, m.raw)
		}
	}
}

// TestFailoverWithSourceUnreachable: a failover needs only the destination; the source's
// trouble shows as a detail. Establishing (a resync) waits for the source, critical.
func TestFailoverWithSourceUnreachable(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, Delays: mirrorDelays})
	id := d.establish("1.1")
	path := "/k8s/v1/appMirrors/" + id
	clock.advance(time.Minute)
	d.unreach(d.src, true)
	m := d.get(path).expectMirror("established", "critical", "idle")
	if !strings.Contains(string(m.raw), "Managed cluster prod can't be reached") {
		t.Fatalf("health: %s", m.raw)
	}
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	clock.advance(30 * time.Second)
	m = d.get(path).expectMirror("failedOver", "warning", "idle")
	if !strings.Contains(string(m.raw), `"title":"Source cluster unreachable"`) {
		t.Fatalf("failed over with the source down: %s", m.raw)
	}
	if got := d.get("/k8s/v2/apps/" + m.str("destinationAppID")).str("state"); got != "ready" {
		t.Fatalf("destination app: %s", got)
	}
	d.put(path, mirrorPut("1.1", "established", m, false)).expect(200)
	clock.advance(5 * time.Minute)
	d.get(path).expectMirror("establishing", "critical", "idle")
	d.unreach(d.src, false)
	d.get(path).expectMirror("established", "normal", "idle")
}

// TestFailoverWithDestinationUnreachable: the failover waits, critical, for the destination.
func TestFailoverWithDestinationUnreachable(t *testing.T) {
	d := newDR(t, Options{})
	id := d.establish("1.1")
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
	d.unreach(d.dst, true)
	d.put("/k8s/v1/appMirrors/"+id, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("failingOver", "critical", "idle")
	d.unreach(d.dst, false)
	d.get("/k8s/v1/appMirrors/"+id).expectMirror("failedOver", "warning", "idle")
}

// TestFailoverWithSourceFailed: the cluster-failure fault (FailCluster) on the source does
// not stop a failover; a resync waits until RestoreCluster ends the disaster. The failover
// copies the source app's replicating schedule to the destination app, once.
func TestFailoverWithSourceFailed(t *testing.T) {
	clock, d, path := replicatingDR(t)
	if err := d.sim.FailCluster(d.src, "the data centre is flooded"); err != nil {
		t.Fatal(err)
	}
	d.get(path).expectMirror("established", "critical", "idle")
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	m := d.get(path).expectMirror("failedOver", "warning", "idle")
	d.put(path, mirrorPut("1.1", "failedOver", nil, false)).expect(200)
	dest := m.str("destinationAppID")
	if items := d.get("/k8s/v1/apps/" + dest + "/schedules").items(); len(items) != 1 || itemField(items, 0, "replicate") != "true" {
		t.Fatalf("schedules copied to the destination: %v", items)
	}
	d.put(path, mirrorPut("1.1", "established", m, true)).expect(200)
	d.get(path).expectMirror("establishing", "critical", "idle")
	if err := d.sim.RestoreCluster(d.src); err != nil {
		t.Fatal(err)
	}
	m = d.get(path).expectMirror("established", "normal", "idle")
	if m.str("sourceAppID") != dest {
		t.Fatalf("after the reverse resync: %s", m.raw)
	}
	// The copied schedule replicates from the new source.
	before := m.lastReplicated()
	clock.advance(10 * time.Second)
	if after := d.get(path).expectMirror("established", "normal", "idle").lastReplicated(); after == before {
		t.Fatalf("no transfer from the new source: %s", after)
	}
	if err := d.sim.RestoreCluster(d.src); err == nil {
		t.Fatal("restoring a running cluster passed")
	}
}

// TestAppMirrorEveryRelease: a short cycle on each release, at its newest appMirror
// version (1.0 in 22.11 and 23.05), every answer checked against that release's schemas.
func TestAppMirrorEveryRelease(t *testing.T) {
	for _, release := range []string{"22.11", "23.05", "23.07", "23.10", "24.02"} {
		d := newDR(t, Options{Release: release, PutReturnsBody: true})
		v := d.sim.newest["appMirror"]
		if want := map[bool]string{true: "1.0", false: "1.1"}[release == "22.11" || release == "23.05"]; v != want {
			t.Fatalf("%s speaks appMirror %s, want %s", release, v, want)
		}
		id := d.establish(v)
		m := d.get("/k8s/v1/appMirrors/"+id).expectMirror("established", "normal", "idle")
		d.put("/k8s/v1/appMirrors/"+id, mirrorPut(v, "failedOver", nil, false)).expect(200)
		d.put("/k8s/v1/appMirrors/"+id, mirrorPut(v, "established", m, true)).expect(200).expectMirror("establishing", "normal", "idle")
		if list := d.get("/k8s/v1/appMirrors"); list.str("version") != v || len(list.items()) != 1 {
			t.Fatalf("%s list: %s", release, list.raw)
		}
		d.del("/k8s/v1/appMirrors/" + id).expect(204)
		d.get("/topology/v1/storageBackends").expect(200)
	}
}

// replicatingDR is an established relationship whose source app has actoolkit's
// replicating schedule, on a fake clock whose schedule clock runs a minute a second.
func replicatingDR(t *testing.T) (*fakeClock, *drEnv, string) {
	t.Helper()
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, ScheduleSpeed: 60})
	path := "/k8s/v1/appMirrors/" + d.establish("1.1")
	d.post("/k8s/v1/apps/"+d.app+"/schedules", tkReplicationSchedule()).expect(201)
	return clock, d, path
}
