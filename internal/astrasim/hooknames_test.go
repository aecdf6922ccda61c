package astrasim

import "testing"

// TestExecutionHookNamesPerApp: two apps may each have a hook of the same name, as NetApp's
// captured "copy hooks" answers show (the source app's hooks created, names unchanged, on
// another app: 201 with new IDs); a second hook of the name on the same app is 409/10
// naming "name", by POST or by a PUT renaming another of its hooks.
func TestExecutionHookNamesPerApp(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02"})
	src := e.hookSource("script")
	web, db := e.readyApp("web", "web"), e.readyApp("db", "db")
	first := e.post(hooksOf(web), hookBody("db-presnap", web, src)).expect(201).str("id")
	copied := e.post(hooksOf(db), hookBody("db-presnap", db, src)).expect(201).str("id")
	if first == copied {
		t.Fatalf("the copy has the source hook's ID %s", first)
	}
	if n := len(e.get("/core/v1/executionHooks").items()); n != 2 {
		t.Errorf("%d hooks in the account, want 2", n)
	}
	e.post(hooksOf(db), hookBody("db-presnap", db, src)).problem(10).field("invalidFields", "name")
	other := e.post(hooksOf(db), hookBody("db-postsnap", db, src)).expect(201).str("id")
	e.put(hooksOf(db)+"/"+other, map[string]any{"type": "application/astra-executionHook", "version": "1.2", "name": "db-presnap"}).
		problem(10).field("invalidFields", "name")
}
