package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestExecutionHookNamedPrefersTheApp: when a create is refused for its name, the hook named
// is the plan's app's (names are unique per app in NetApp's captured answers, so another
// app may hold a hook of the name too), else another app's (the schema's prose: unique
// across all hooks), else none.
func TestExecutionHookNamedPrefersTheApp(t *testing.T) {
	const account = "7c1f3a52-9e4b-4d8a-b6e2-5f0a1c3d9b47"
	const web, db = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/astra-executionHooks+json")
		fmt.Fprintf(w, `{"type":"application/astra-executionHooks","version":"1.3","items":[`+
			`{"type":"application/astra-executionHook","version":"1.3","id":"a0000000-0000-4000-8000-000000000001","name":"presnap","appID":%q},`+
			`{"type":"application/astra-executionHook","version":"1.3","id":"a0000000-0000-4000-8000-000000000002","name":"presnap","appID":%q}]}`, web, db)
	}))
	defer srv.Close()
	client, err := astra.New(astra.Config{Endpoint: srv.URL, AccountID: account, Token: "t", AllowPlaintext: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if h := executionHookNamed(ctx, client, db, "presnap"); h == nil || h.AppID != db {
		t.Errorf("the app's own hook: got %+v", h)
	}
	if h := executionHookNamed(ctx, client, "33333333-3333-4333-8333-333333333333", "presnap"); h == nil || h.AppID != web {
		t.Errorf("another app's hook: got %+v", h)
	}
	if h := executionHookNamed(ctx, client, db, "postsnap"); h != nil {
		t.Errorf("no hook of the name: got %+v", h)
	}
}
