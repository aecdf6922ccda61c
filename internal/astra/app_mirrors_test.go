package astra

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestAppMirror_lastTransferAndDescribe: the last transfer's time comes from the details'
// completionTime (the newest); a wait's description names the health details.
func TestAppMirror_lastTransferAndDescribe(t *testing.T) {
	var m AppMirror
	body := `{"type":"application/astra-appMirror","version":"1.1","id":"m","state":"established","healthState":"critical",
	  "stateDetails":[{"type":"t","title":"Snapshot replication completed","detail":"d",
	    "additionalDetails":{"completionTime":"2026-12-04T10:00:00Z"}},
	   {"type":"t","title":"Snapshot replication completed","detail":"d","additionalDetails":{"completionTime":"2026-12-04T10:05:00Z"}}],
	  "healthStateDetails":[{"type":"t","title":"Transfer failed","detail":"SnapMirror transfer aborted"}],
	  "ReplicatedPVCs_":null}`
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	if got := m.LastTransfer(); !got.Equal(time.Date(2026, 12, 4, 10, 5, 0, 0, time.UTC)) {
		t.Errorf("last transfer %v", got)
	}
	if _, ok := m.Extra["ReplicatedPVCs_"]; !ok {
		t.Errorf("an undocumented member is dropped")
	}
	what, state := m.Describe()
	if what != "app mirror m" || !strings.Contains(state, "Transfer failed: SnapMirror transfer aborted") || !strings.Contains(state, "critical") {
		t.Errorf("describe: %s / %s", what, state)
	}
	if AppMirrorVersionFor("1.3") != "1.0" || AppMirrorVersionFor("1.4") != "1.0" || AppMirrorVersionFor("1.7") != "1.1" {
		t.Errorf("versions: 22.11/23.05 speak 1.0, later releases 1.1")
	}
}
