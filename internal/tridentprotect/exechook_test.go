package tridentprotect

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"
)

func hookEstate(hooks ...Hook) Estate {
	return Estate{Apps: []App{{ID: "a-1", Name: "mysql", NamespaceScopedResources: []NamespaceScope{{Namespace: "db"}}, Hooks: hooks}}}
}

const quiesce = "#!/bin/sh\n# flush and lock\nmysql -e 'FLUSH TABLES WITH READ LOCK'\n"

func TestExecHookStagesAndActions(t *testing.T) {
	cases := []struct {
		stage, action         string
		wantStage, wantAction string
		warnings              []string
	}{
		{"pre", "snapshot", "Pre", "Snapshot", nil},
		{"post", "snapshot", "Post", "Snapshot", nil},
		{"pre", "backup", "Pre", "Backup", nil},
		{"post", "backup", "Post", "Backup", nil},
		{"post", "restore", "Post", "Restore", nil},
		{"POST", "Failover", "Post", "Failover", []string{
			`execution hook "h" (h-1): a failover hook runs when an AppMirrorRelationship fails over; this rendering creates none (Astra Control replication is not mapped)`}},
	}
	for _, c := range cases {
		t.Run(c.stage+"-"+c.action, func(t *testing.T) {
			h := Hook{ID: "h-1", Name: "h", HookType: "custom", Stage: c.stage, Action: c.action, Source: HookSource{Name: "s", Script: quiesce}}
			r := mustRender(t, hookEstate(h), Options{})
			want := map[string]any{"applicationRef": appRef(t, r, "mysql"), "stage": c.wantStage, "action": c.wantAction, "enabled": true,
				"hookSource": base64.StdEncoding.EncodeToString([]byte(quiesce))}
			if got := specOf(find(t, r, KindExecHook, "h")); !reflect.DeepEqual(got, want) {
				t.Errorf("spec:\n%s\nwant:\n%s", jsonOf(got), jsonOf(want))
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), c.warnings)
			assertValid(t, r)
		})
	}
}

func TestExecHookFields(t *testing.T) {
	h := Hook{ID: "h-1", Name: "MySQL quiesce", Stage: "pre", Action: "backup", Disabled: true,
		Arguments: []string{"--mode", "lock tables", ""},
		MatchingCriteria: []MatchingCriterion{
			{Type: "containerImage", Value: "^docker.io/bitnami/mysql:.*$"}, {Type: "containerName", Value: "mysql"},
			{Type: "podName", Value: "^mysql-[0-9]+$"}, {Type: "PodLabel", Value: "app.kubernetes.io/component=primary"},
			{Type: "namespaceName", Value: "^db$"},
		},
		Source: HookSource{ID: "s-1", Name: "mysql-hooks", Script: quiesce}}
	r := mustRender(t, hookEstate(h), Options{})
	m := find(t, r, KindExecHook, "mysql-quiesce")
	want := map[string]any{"applicationRef": appRef(t, r, "mysql"), "stage": "Pre", "action": "Backup", "enabled": false,
		"hookSource": base64.StdEncoding.EncodeToString([]byte(quiesce)),
		"arguments":  []any{"--mode", "lock tables", ""},
		"matchingCriteria": []any{
			map[string]any{"type": "containerImage", "value": "^docker.io/bitnami/mysql:.*$"},
			map[string]any{"type": "containerName", "value": "mysql"},
			map[string]any{"type": "podName", "value": "^mysql-[0-9]+$"},
			map[string]any{"type": "podLabel", "value": "app.kubernetes.io/component=primary"},
			map[string]any{"type": "namespaceName", "value": "^db$"},
		}}
	if !reflect.DeepEqual(specOf(m), want) {
		t.Errorf("spec:\n%s\nwant:\n%s", jsonOf(specOf(m)), jsonOf(want))
	}
	if m.Namespace != "db" {
		t.Errorf("namespace %q, want db (the Application's)", m.Namespace)
	}
	// The script survives the trip through base64 byte for byte.
	decoded, err := base64.StdEncoding.DecodeString(specOf(m)["hookSource"].(string))
	if err != nil || string(decoded) != quiesce {
		t.Errorf("hookSource decodes to %q (%v), want the script", decoded, err)
	}
	sameStrings(t, "warnings", warningTexts(r.Warnings), nil)
	assertValid(t, r)
}

func TestExecHookLargeScript(t *testing.T) {
	big := "#!/bin/sh\n" + strings.Repeat("echo 0123456789\n", 6000) // 96,010 bytes
	r := mustRender(t, hookEstate(Hook{ID: "h-1", Name: "big", Stage: "post", Action: "backup", Source: HookSource{Script: big}}), Options{})
	find(t, r, KindExecHook, "big")
	sameStrings(t, "warnings", warningTexts(r.Warnings), []string{
		`execution hook "big" (h-1): its script is 96010 bytes, more than the 96 KB Trident protect's documentation allows`})
	at := "#!/bin/sh\n" + strings.Repeat("x", maxScriptBytes-len("#!/bin/sh\n"))
	r = mustRender(t, hookEstate(Hook{ID: "h-1", Name: "at", Stage: "post", Action: "backup", Source: HookSource{Script: at}}), Options{})
	sameStrings(t, "warnings at the limit", warningTexts(r.Warnings), nil)
}

func TestExecHookNotRendered(t *testing.T) {
	ok := Hook{ID: "h-1", Name: "h", Stage: "pre", Action: "snapshot", Source: HookSource{Name: "src", Script: quiesce}}
	with := func(f func(*Hook)) Hook { h := ok; f(&h); return h }
	criteria := func(n int) []MatchingCriterion {
		out := make([]MatchingCriterion, n)
		for i := range out {
			out[i] = MatchingCriterion{Type: "podName", Value: "x"}
		}
		return out
	}
	const obj = `execution hook "h" (h-1): `
	cases := []struct {
		name    string
		hook    Hook
		warning string
	}{
		{"NetApp's own hook", with(func(h *Hook) { h.HookType = "netapp" }),
			obj + `is a NetApp-provided hook (hookType "netapp"), which Trident protect does not have; no ExecHook is rendered`},
		{"pre-restore", with(func(h *Hook) { h.Action = "restore" }),
			obj + `Trident protect runs restore and failover hooks only after the operation (Post); no ExecHook is rendered for a pre-restore hook`},
		{"pre-failover", with(func(h *Hook) { h.Action = "failover" }),
			obj + `Trident protect runs restore and failover hooks only after the operation (Post); no ExecHook is rendered for a pre-failover hook`},
		{"unknown action", with(func(h *Hook) { h.Action = "clone" }),
			obj + `action "clone" and stage "pre" are not a Trident protect hook type; no ExecHook is rendered`},
		{"unknown stage", with(func(h *Hook) { h.Stage = "during" }),
			obj + `action "snapshot" and stage "during" are not a Trident protect hook type; no ExecHook is rendered`},
		{"private source", with(func(h *Hook) { h.Source.Private, h.Source.Script = true, "" }),
			obj + `its hook source "src" is private: Astra Control does not return the script, so no ExecHook is rendered; create it from your copy of the script`},
		{"empty script", with(func(h *Hook) { h.Source.Script = " \n" }),
			obj + `its hook source "src" has no script; no ExecHook is rendered`},
		{"unknown criterion type", with(func(h *Hook) {
			h.MatchingCriteria = []MatchingCriterion{{Type: "podName", Value: "x"}, {Type: "nodeName", Value: "y"}}
		}), obj + `matching criterion type "nodeName" is not one Trident protect has; leaving it out would widen where the script runs, so no ExecHook is rendered`},
		{"eleven criteria", with(func(h *Hook) { h.MatchingCriteria = criteria(11) }),
			obj + `has 11 matching criteria, more than the 10 Trident protect allows; no ExecHook is rendered`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, hookEstate(c.hook), Options{})
			for _, m := range r.Manifests {
				if m.Kind == KindExecHook {
					t.Errorf("rendered %s", m.Key())
				}
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), []string{c.warning})
		})
	}
	// Ten criteria are allowed.
	r := mustRender(t, hookEstate(with(func(h *Hook) { h.MatchingCriteria = criteria(10) })), Options{})
	find(t, r, KindExecHook, "h")
	assertValid(t, r)
}
