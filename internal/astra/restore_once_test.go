package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestRestoreAppIsSentOnce: an in-place restore's PUT is repeated only when the service
// certainly did not act on it (503, 429, 409/164); after a 502, a 504 or a reset it is not
// sent again (a second restore would overwrite the app twice) and the outcome is unknown.
// An ordinary update's PUT is still retried after a 502.
func TestRestoreAppIsSentOnce(t *testing.T) {
	for _, tc := range []struct {
		name    string
		first   func(w http.ResponseWriter)
		puts    int
		unknown bool
	}{
		{"502", func(w http.ResponseWriter) {
			reply(w, 502, "application/problem+json", problemJSON(40, "502", "Bad gateway", "x"))
		}, 1, true},
		{"504", func(w http.ResponseWriter) { reply(w, 504, "", "") }, 1, true},
		{"reset", func(w http.ResponseWriter) { hangUp(w, nil, nil) }, 1, true},
		{"503", func(w http.ResponseWriter) {
			reply(w, 503, "application/problem+json", problemJSON(24, "503", "Unavailable", "x"))
		}, 2, false},
		{"409/164", func(w http.ResponseWriter) {
			reply(w, 409, "application/problem+json", problemJSON(164, "409", "Requested resource in unexpected state", "x"))
		}, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			puts := 0
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
				if puts++; puts == 1 {
					tc.first(w)
					return
				}
				w.WriteHeader(http.StatusNoContent)
			})
			err := f.client(t).RestoreApp(context.Background(), cloneSourceApp, cloneSnapshot, "")
			if IsUnknownOutcome(err) != tc.unknown || (!tc.unknown && err != nil) || puts != tc.puts {
				t.Fatalf("restore after %s: %d PUTs, error %v; want %d PUTs, unknown outcome %v", tc.name, puts, err, tc.puts, tc.unknown)
			}
			if tc.unknown && !strings.HasPrefix(err.Error(), "PUT ") {
				t.Errorf("the error names another method: %v", err)
			}
		})
	}
	puts := 0
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.Method == http.MethodGet {
			reply(w, 200, "application/json", appJSON)
			return
		}
		if puts++; puts == 1 {
			reply(w, 502, "", "")
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	var app App
	if err := json.Unmarshal([]byte(appJSON), &app); err != nil {
		t.Fatal(err)
	}
	if _, err := f.client(t).UpdateApp(context.Background(), &app); err != nil || puts != 2 {
		t.Fatalf("an ordinary update after a 502: %d PUTs, %v; want 2 and no error", puts, err)
	}
}

// TestAppRestoredFrom reads the snapshot or backup an app names in its GET.
func TestAppRestoredFrom(t *testing.T) {
	var a App
	raw := strings.Replace(appJSON, `"name":"web",`, `"name":"web","backupID":"`+cloneBackup+`",`, 1)
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatal(err)
	}
	if s, b := a.RestoredFrom(); s != "" || b != cloneBackup {
		t.Fatalf("RestoredFrom: %q, %q", s, b)
	}
	if s, b := (&App{}).RestoredFrom(); s != "" || b != "" {
		t.Fatalf("RestoredFrom of an app naming none: %q, %q", s, b)
	}
}
