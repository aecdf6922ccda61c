package astrasim

import (
	"strings"
	"testing"
)

// hookDetails lists the hook names in an answer's hookStateDetails, in order.
func hookDetails(r *result) []string {
	raw, _ := r.body["hookStateDetails"].([]any)
	var out []string
	for _, d := range raw {
		detail, _ := d.(map[string]any)["detail"].(string)
		name, _, _ := strings.Cut(strings.TrimPrefix(detail, "Execution hook "), " ")
		out = append(out, name)
	}
	return out
}

// TestHookOutcomes: hooks whose source fails report hookState failed, in Astra Control's
// documented order, while the snapshot or backup itself completes (hook failures are soft).
func TestHookOutcomes(t *testing.T) {
	e := newEnv(t, Options{FailHookSources: []string{"broken"}})
	e.bucket("hooks")
	appID := e.readyApp("web", "mysql")
	ok, broken := e.hookSource("fine"), e.hookSource("broken")
	add := func(name, action, stage, source string, fields map[string]any) {
		b := hookBody(name, appID, source)
		b["action"], b["stage"] = action, stage
		for k, v := range fields {
			b[k] = v
		}
		e.post(hooksOf(appID), b).expect(201)
	}
	add("post-backup", "backup", "post", broken, nil)
	add("pre-snapshot", "snapshot", "pre", broken, nil)
	add("post-snapshot", "snapshot", "post", broken, nil)
	add("pre-backup", "backup", "pre", broken, nil)
	add("fine-pre-snapshot", "snapshot", "pre", ok, nil)
	add("disabled", "snapshot", "pre", broken, map[string]any{"enabled": "false"})
	add("matches-nothing", "snapshot", "pre", broken, map[string]any{"matchingCriteria": []any{map[string]any{"type": "containerImage", "value": "postgres"}}})
	add("restore", "restore", "post", broken, nil)

	snap := e.post(snapsOf(appID), snapBody("s1")).expect(201)
	if snap.str("state") != "completed" || snap.str("hookState") != "failed" {
		t.Fatalf("snapshot: %s", snap.raw)
	}
	if got := strings.Join(hookDetails(snap), ","); got != "pre-snapshot,post-snapshot" {
		t.Errorf("snapshot's failed hooks: %s", got)
	}
	detail := snap.body["hookStateDetails"].([]any)[0].(map[string]any)["detail"].(string)
	if !strings.Contains(detail, "script broken") || !strings.Contains(detail, "in mysql/mysql-0/mysql") {
		t.Errorf("hook failure detail: %s", detail)
	}
	// A backup that takes its own snapshot runs the snapshot hooks too, inside the backup's.
	own := e.post(backupsOf(appID), backupBody("own", nil)).expect(201)
	own = e.get(backupsOf(appID) + "/" + own.str("id")).expect(200) // the POST answer has no hookStateDetails
	if got := strings.Join(hookDetails(own), ","); got != "pre-backup,pre-snapshot,post-snapshot,post-backup" || own.str("state") != "completed" {
		t.Errorf("backup with its own snapshot: %s (%s)", got, own.str("state"))
	}
	// One taken from a snapshot runs only the backup hooks.
	from := e.post(backupsOf(appID), backupBody("from", map[string]any{"snapshotID": snap.str("id")})).expect(201)
	from = e.get(backupsOf(appID) + "/" + from.str("id")).expect(200)
	if got := strings.Join(hookDetails(from), ","); got != "pre-backup,post-backup" {
		t.Errorf("backup from a snapshot: %s", got)
	}
	// Without failing sources: success.
	for _, h := range e.sim.st.hooksOf(appID) {
		h.HookSourceID = ok
	}
	if got := e.post(snapsOf(appID), snapBody("s2")).expect(201); got.str("hookState") != "success" || len(hookDetails(got)) != 0 {
		t.Errorf("hooks that succeed: %s", got.raw)
	}
}

func TestAppContainersAndCriteria(t *testing.T) {
	a := &app{NamespaceScope: []nsScope{
		{Namespace: "wordpress"},
		{Namespace: "db", LabelSelectors: []string{"app=mysql,tier==backend", "env!=dev"}},
		{Namespace: "wordpress"},
	}}
	cs := appContainers(a)
	if len(cs) != 2 {
		t.Fatalf("containers: %+v", cs)
	}
	if c := cs[1]; c.Pod != "mysql-0" || c.Name != "mysql" || c.Image != "docker.io/library/mysql:latest" || c.Namespace != "db" ||
		len(c.Labels) != 2 || c.Labels[1] != (label{"tier", "backend"}) {
		t.Errorf("selected container: %+v", c)
	}
	cases := []struct {
		criteria []criterion
		want     string
	}{
		{nil, "wordpress,mysql"},
		{[]criterion{{"containerImage", `\bmysql\b`}}, "mysql"},
		{[]criterion{{"containerName", "^word"}}, "wordpress"},
		{[]criterion{{"podName", "-0$"}, {"namespaceName", "^db$"}}, "mysql"},
		{[]criterion{{"podLabel", "^tier=backend$"}}, "mysql"},
		{[]criterion{{"podLabel", "^app=wordpress$"}}, "wordpress"},
		{[]criterion{{"containerImage", "mysql"}, {"namespaceName", "wordpress"}}, ""},
	}
	for _, c := range cases {
		var names []string
		for _, ct := range matchingContainers(cs, c.criteria) {
			names = append(names, ct.Name)
		}
		if got := strings.Join(names, ","); got != c.want {
			t.Errorf("%v: %s, want %s", c.criteria, got, c.want)
		}
	}
}
