package astrasim

import "encoding/base64"

// Helpers of the day-two tests: snapshots, backups, hook sources and execution hooks.

// testScript is a hook source's script, base64-encoded as clients send it.
var testScript = base64.StdEncoding.EncodeToString([]byte("#!/bin/sh\necho \"$@\"\n"))

func hookSourceBody(name, source string) map[string]any {
	return map[string]any{"type": "application/astra-hookSource", "version": "1.0", "name": name, "sourceType": "script", "source": source}
}

// hookSource creates a hook source and returns its ID.
func (e *env) hookSource(name string) string {
	e.t.Helper()
	return e.post("/core/v1/hookSources", hookSourceBody(name, testScript)).expect(201).str("id")
}

// hookBody is a pre-snapshot hook as actoolkit's "create hook" sends it (version 1.2).
func hookBody(name, appID, sourceID string) map[string]any {
	return map[string]any{"type": "application/astra-executionHook", "version": "1.2", "name": name, "hookType": "custom",
		"action": "snapshot", "stage": "pre", "hookSourceID": sourceID, "arguments": []any{"pre"}, "appID": appID,
		"matchingCriteria": []any{}, "enabled": "true"}
}

func snapBody(name string) map[string]any {
	b := map[string]any{"type": "application/astra-appSnap", "version": "1.1"}
	if name != "" {
		b["name"] = name
	}
	return b
}

func backupBody(name string, fields map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-appBackup", "version": "1.1"}
	if name != "" {
		b["name"] = name
	}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

// readyApp manages a private cluster with the namespaces and an app of them; it returns the app's ID.
func (e *env) readyApp(name string, namespaces ...string) string {
	e.t.Helper()
	if len(namespaces) == 0 {
		namespaces = []string{"default"}
	}
	id := e.managedCluster(dnsLabel(name, 40, "app") + "-cluster")
	c := e.sim.st.Clusters[id]
	for _, ns := range namespaces {
		if !containsString(c.Namespaces, ns) {
			c.Namespaces = append(c.Namespaces, ns) // the workloads a test needs
		}
	}
	return e.post("/k8s/v2/apps", appBody(name, id, namespaces...)).expect(201).str("id")
}

// bucket records an S3 bucket (available at once without a bucket delay) and returns its ID.
func (e *env) bucket(name string) string {
	e.t.Helper()
	return e.post("/topology/v1/buckets", s3BucketBody(name, e.s3Credential(name+"-key"), name)).expect(201).str("id")
}

func snapsOf(appID string) string   { return "/k8s/v1/apps/" + appID + "/appSnaps" }
func backupsOf(appID string) string { return "/k8s/v1/apps/" + appID + "/appBackups" }
func hooksOf(appID string) string   { return "/k8s/v1/apps/" + appID + "/executionHooks" }

// strs returns a string array member of the answer.
func (r *result) strs(key string) []string {
	raw, _ := lookup(r.body, key).([]any)
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		s, _ := v.(string)
		out = append(out, s)
	}
	return out
}
