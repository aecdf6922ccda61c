package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestDeleteAppBackupOnce: a DELETE refused with 142 (the catalogue) or 128 (the only 409
// the 24.02 spec lists for it) is answered by reading the backup: a failed one is deleted
// again with Force-Delete, kept for later attempts; a pending one's refusal is returned for
// deleteAppRun to ask again, with no Force-Delete sent (issue 43, items 5 and 6).
func TestDeleteAppBackupOnce(t *testing.T) {
	const account, appID, id = "7c1f3a52-9e4b-4d8a-b6e2-5f0a1c3d9b47", "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	for _, tc := range []struct {
		problem    int
		state      string
		wantErr    bool
		wantForced bool
	}{
		{142, "failed", false, true},
		{128, "failed", false, true},
		{128, "pending", true, false},
		{142, "pending", true, false},
	} {
		t.Run(fmt.Sprintf("%d/%s", tc.problem, tc.state), func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				seen = append(seen, r.Method+" force="+r.Header.Get("Force-Delete"))
				mu.Unlock()
				switch {
				case r.Method == http.MethodGet:
					w.Header().Set("Content-Type", "application/astra-appBackup+json")
					fmt.Fprintf(w, `{"type":"application/astra-appBackup","version":"1.1","id":%q,"name":"b","state":%q}`, id, tc.state)
				case r.Header.Get("Force-Delete") == "true":
					w.WriteHeader(http.StatusNoContent)
				default:
					w.Header().Set("Content-Type", "application/problem+json")
					w.WriteHeader(http.StatusConflict)
					fmt.Fprintf(w, `{"type":"https://astra.netapp.io/problems/%d","title":"refused","detail":"refused","status":"409"}`, tc.problem)
				}
			}))
			defer srv.Close()
			client, err := astra.New(astra.Config{Endpoint: srv.URL, AccountID: account, Token: "t", AllowPlaintext: true})
			if err != nil {
				t.Fatal(err)
			}
			force := false
			err = deleteAppBackupOnce(context.Background(), client, appID, id, &force)
			if (err != nil) != tc.wantErr || force != tc.wantForced {
				t.Fatalf("err %v, force %v; requests %v", err, force, seen)
			}
			want := "DELETE force=, GET force=, DELETE force=true"
			if !tc.wantForced {
				want = "DELETE force=, GET force="
				if refusalOf(opDeleteBackup, err) == refusalFail {
					t.Errorf("the pending backup's refusal would not be asked again: %v", err)
				}
			}
			if got := strings.Join(seen, ", "); got != want {
				t.Errorf("requests %q, want %q", got, want)
			}
		})
	}
}
