package astrasim

import (
	"testing"
	"time"
)

// Behaviours NetApp's actoolkit relies on, found by running it against the simulator
// (scripts/toolkit-check.sh; research notes §4.15).

// TestAppMirrorPutAnswersTheRelationship: a failover, reverse or resync PUT answers 200 with
// the relationship even when PUTs otherwise answer 204: actoolkit's `update replication`
// fails on an empty answer, and NetApp's docs print these bodies (research notes §4.12).
func TestAppMirrorPutAnswersTheRelationship(t *testing.T) {
	clock := newClock()
	d := newDR(t, Options{Now: clock.Now, Delays: mirrorDelays}) // PutReturnsBody off
	id := d.establish("1.0")
	clock.advance(time.Minute)
	path := "/k8s/v1/appMirrors/" + id
	r := d.put(path, map[string]any{"type": "application/astra-appMirror", "version": "1.0", "stateDesired": "failedOver"}).expect(200)
	r.expectMirror("failingOver", "warning", "idle")
	if r.str("id") != id || r.str("sourceAppID") != d.app || r.str("destinationAppID") == "" {
		t.Fatalf("failover answer: %s", r.raw)
	}
}
