package astrasim

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestExecutionHookValidation(t *testing.T) {
	e := newEnv(t, Options{})
	appID := e.readyApp("web")
	src := e.hookSource("script")
	with := func(fields map[string]any) map[string]any {
		b := hookBody("h", appID, src)
		for k, v := range fields {
			if v == nil {
				delete(b, k)
				continue
			}
			b[k] = v
		}
		return b
	}
	args := make([]any, 17)
	for i := range args {
		args[i] = strings.Repeat("a", i+1)
	}
	cases := []struct {
		name    string
		fields  map[string]any
		problem int
		field   string
	}{
		{"a NetApp hook", map[string]any{"hookType": "netapp"}, 73, ""},
		{"an unknown app", map[string]any{"appID": "00000000-0000-4000-8000-000000000001"}, 9, "appID"},
		{"an unknown hook source", map[string]any{"hookSourceID": "00000000-0000-4000-8000-000000000001"}, 9, "hookSourceID"},
		{"a pre-restore hook", map[string]any{"action": "restore", "stage": "pre"}, 9, "stage"},
		{"17 arguments", map[string]any{"arguments": args}, 9, "arguments"},
		{"an argument of 128 characters", map[string]any{"arguments": []any{strings.Repeat("a", 128)}}, 8, ""},
		{"a criterion that is not a regular expression", map[string]any{"matchingCriteria": []any{map[string]any{"type": "containerImage", "value": "mysql("}}}, 9, "matchingCriteria[0].value"},
		{"a criterion without a type", map[string]any{"matchingCriteria": []any{map[string]any{"value": "mysql"}}}, 9, "matchingCriteria[0].type"},
		{"an unknown criterion type", map[string]any{"matchingCriteria": []any{map[string]any{"type": "nodeName", "value": "x"}}}, 8, ""},
		{"11 criteria", map[string]any{"matchingCriteria": func() []any {
			out := make([]any, 11)
			for i := range out {
				out[i] = map[string]any{"type": "podName", "value": strings.Repeat("p", i+1)}
			}
			return out
		}()}, 8, ""},
		{"failover at 1.2", map[string]any{"action": "failover", "stage": "post"}, 8, ""},
		{"no name", map[string]any{"name": nil}, 8, ""},
	}
	for _, c := range cases {
		r := e.post("/core/v1/executionHooks", with(c.fields)).problem(c.problem)
		if c.field != "" {
			r.field("invalidFields", c.field)
		}
	}
	first := e.post("/core/v1/executionHooks", with(nil)).expect(201)
	if first.str("enabled") != "true" || first.str("hookType") != "custom" || len(first.strs("arguments")) != 1 {
		t.Errorf("POST answer: %s", first.raw)
	}
	e.post(hooksOf(appID), with(nil)).problem(10).field("invalidFields", "name")
	other := e.readyApp("other")
	e.post(hooksOf(other), with(map[string]any{"name": "h2"})).problem(9).field("invalidFields", "appID")
	e.post(hooksOf("00000000-0000-4000-8000-000000000001"), with(map[string]any{"name": "h3"})).problem(2)
}

func TestExecutionHookUpdateAndPaths(t *testing.T) {
	e := newEnv(t, Options{Release: "23.07"})
	appID := e.readyApp("web", "db")
	src, src2 := e.hookSource("script"), e.hookSource("script-2")
	h := hookBody("h", appID, src)
	h["version"] = "1.3"
	id := e.post(hooksOf(appID), h).expect(201).str("id")
	core, scoped := "/core/v1/executionHooks/"+id, hooksOf(appID)+"/"+id
	update := func(fields map[string]any) map[string]any {
		b := map[string]any{"type": "application/astra-executionHook", "version": "1.3"}
		for k, v := range fields {
			b[k] = v
		}
		return b
	}
	e.put(core, update(map[string]any{"action": "failover", "stage": "post", "hookSourceID": src2, "enabled": "false",
		"matchingCriteria": []any{map[string]any{"type": "namespaceName", "value": "^db$"}}})).expect(204)
	got := e.get(scoped).expect(200)
	if got.str("action") != "failover" || got.str("hookSourceID") != src2 || got.str("enabled") != "false" {
		t.Errorf("after PUT: %s", got.raw)
	}
	containers, _ := got.body["matchingContainers"].([]any)
	if len(containers) != 1 || lookup(containers[0].(map[string]any), "namespaceName") != "db" ||
		strings.Join(got.strs("matchingImages"), ",") != "docker.io/library/db:latest" {
		t.Errorf("matching: %s", got.raw)
	}
	// A PUT replaces: the spec's example (arguments alone) keeps what a hook cannot do
	// without and drops the rest: the criteria go, enabled is back to its default.
	e.put(scoped, update(map[string]any{"arguments": []any{"freeze", "10"}})).expect(204)
	if got := e.get(core).expect(200); got.str("action") != "failover" || got.str("enabled") != "true" ||
		strings.Join(got.strs("arguments"), ",") != "freeze,10" || len(got.body["matchingCriteria"].([]any)) != 0 {
		t.Errorf("after a partial PUT: %s", got.raw)
	}
	// What a PUT may not change, and a failover hook written back at 1.2.
	other := e.readyApp("other")
	e.put(core, update(map[string]any{"appID": other})).problem(10).field("invalidFields", "appID")
	e.put(core, update(map[string]any{"hookType": "netapp"})).problem(10)
	e.put(core, map[string]any{"type": "application/astra-executionHook", "version": "1.2", "arguments": []any{}}).problem(9).field("invalidFields", "action")
	// The app-scoped path answers only the app's own hooks.
	e.get(hooksOf(other) + "/" + id).problem(2)
	e.put(hooksOf(other)+"/"+id, update(nil)).problem(1)
	if items := e.get(hooksOf(other)).expect(200).items(); len(items) != 0 {
		t.Errorf("the other app's hooks: %v", items)
	}
	if items := e.get("/core/v1/executionHooks").expect(200).items(); len(items) != 1 {
		t.Errorf("every hook: %v", items)
	}
	e.del(hooksOf(other) + "/" + id).problem(1)
	e.del(scoped).expect(204)
	e.get(core).problem(2)
}

// On 22.11 and 23.05 (executionHook 1.2) a failover hook cannot even be named.
func TestFailoverHooksNeedVersion13(t *testing.T) {
	e := newEnv(t, Options{Release: "23.05"})
	appID := e.readyApp("web")
	h := hookBody("h", appID, e.hookSource("script"))
	h["action"], h["stage"] = "failover", "post"
	e.post(hooksOf(appID), h).problem(8)
	h["version"] = "1.3"
	e.post(hooksOf(appID), h).problem(8)
}

// TestHookArgumentsNull: actoolkit (astraSDK's createHook) sends "arguments": null for a hook
// without arguments, outside the published schema; NetApp's own client works against the
// service, so the simulator takes it as no arguments (issue 43, item 12).
func TestHookArgumentsNull(t *testing.T) {
	e := newEnv(t, Options{})
	appID := e.readyApp("web")
	b := hookBody("no-args", appID, e.hookSource("script"))
	b["arguments"] = nil
	r := e.post(hooksOf(appID), b).expect(201)
	if args, ok := r.body["arguments"].([]any); !ok || len(args) != 0 {
		t.Errorf("arguments answered %#v, want []: %s", r.body["arguments"], r.raw)
	}
}

// TestPostAnswersAsCaptured: a backup's POST answer is what NetApp's captured answers carry
// (id, name, bucketID, state pending, stateUnready, metadata; no totalBytes, progress or
// timestamps) and a hook's has no matchingContainers or matchingImages; a GET has them all.
func TestPostAnswersAsCaptured(t *testing.T) {
	e := newEnv(t, Options{Release: "24.02", Delays: Delays{Backup: time.Hour}})
	e.bucket("captured")
	appID := e.readyApp("web")
	b := e.post(backupsOf(appID), backupBody("b1", nil)).expect(201)
	var keys []string
	for k := range b.body {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"bucketID", "id", "metadata", "name", "state", "stateUnready", "type", "version"}; !slices.Equal(keys, want) || b.str("state") != "pending" {
		t.Errorf("backup POST answer members %v, want %v: %s", keys, want, b.raw)
	}
	if got := e.get(backupsOf(appID) + "/" + b.str("id")).expect(200); got.body["totalBytes"] == nil || got.body["backupCreationTimestamp"] == nil {
		t.Errorf("backup GET answer: %s", got.raw)
	}
	h := e.post(hooksOf(appID), hookBody("h", appID, e.hookSource("script"))).expect(201)
	if _, ok := h.body["matchingContainers"]; ok {
		t.Errorf("hook POST answer has matchingContainers: %s", h.raw)
	}
	if _, ok := h.body["matchingImages"]; ok {
		t.Errorf("hook POST answer has matchingImages: %s", h.raw)
	}
	if got := e.get("/core/v1/executionHooks/" + h.str("id")).expect(200); len(got.body["matchingContainers"].([]any)) == 0 {
		t.Errorf("hook GET answer: %s", got.raw)
	}
}
