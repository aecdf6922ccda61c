package astrasim

import (
	"net/url"
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

// TestDirectoryInIsAPartialMatch: on ldapUsers and ldapGroups `in` matches part of the
// value, case aside, as actoolkit's `--matchType partial` and `create group` (a whole DN,
// commas and all) rely on; elsewhere `in` stays a list of values.
func TestDirectoryInIsAPartialMatch(t *testing.T) {
	e := center(t, Options{})
	e.connectLDAP()
	search := func(path, filter string) []string {
		t.Helper()
		var names []string
		for _, it := range e.get(path + "?filter=" + url.QueryEscape(filter)).expect(200).items() {
			names = append(names, it.(map[string]any)["cn"].(string))
		}
		return names
	}
	groupDN := "cn=payments," + DirectoryGroupBase
	for _, c := range []struct {
		path, filter string
		want         int
	}{
		{"/core/v1/ldapGroups", "dn in '" + groupDN + "'", 1},
		{"/core/v1/ldapGroups", "cn in 'PAY'", 1},
		{"/core/v1/ldapGroups", "cn eq 'pay'", 0},
		{"/core/v1/ldapUsers", "email in 'bob'", 1},
		{"/core/v1/ldapUsers", "email in 'EXAMPLE.com'", 3}, // alice, bob and carol
	} {
		if got := search(c.path, c.filter); len(got) != c.want || c.want == 0 && got != nil {
			t.Errorf("%s?filter=%s: %v, want %d", c.path, c.filter, got, c.want)
		}
	}
	if got := search("/core/v1/ldapGroups", "dn in '"+groupDN+"'"); len(got) != 1 || got[0] != "payments" {
		t.Fatalf("the group by its whole DN: %v", got)
	}
	// Elsewhere `in` is still a list: two cluster names, neither a part of the other.
	if n := len(e.get("/topology/v1/clusters?filter=" + url.QueryEscape("name in 'gke-prod,aks-prod'")).expect(200).items()); n != 2 {
		t.Fatalf("name in a list of clusters: %d, want 2", n)
	}
	if n := len(e.get("/topology/v1/clusters?filter=" + url.QueryEscape("name in 'prod'")).expect(200).items()); n != 0 {
		t.Fatalf("in outside the directory matched part of a name: %d", n)
	}
}
