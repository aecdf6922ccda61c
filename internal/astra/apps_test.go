package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

const appJSON = `{"type":"application/astra-app","version":"2.1","id":"9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d","name":"web",
"clusterID":"0f284377-e5dc-4dcd-bacd-3197f2b8a347","namespaceScopedResources":[{"namespace":"default","labelSelectors":[]}],
"state":"ready","stateDetails":[],"protectionState":"none","protectionStateDetails":[],"namespaces":["default"],"metadata":{"labels":[]}}`

const scheduleJSON = `{"type":"application/astra-schedule","version":"1.3","id":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d","name":"hourly",
"enabled":"true","granularity":"hourly","minute":"5","snapshotRetention":"7","backupRetention":"3","metadata":{"labels":[]}}`

// appBodies captures the bodies the app and schedule calls send.
func appBodies(t *testing.T, call func(context.Context, *Client) error) [][]byte {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if strings.Contains(r.URL.Path, "/schedules") {
			reply(w, 201, "application/json", scheduleJSON)
			return
		}
		reply(w, 201, "application/json", appJSON)
	})
	if err := call(context.Background(), f.client(t)); err != nil {
		t.Fatalf("call: %v", err)
	}
	var out [][]byte
	for _, r := range f.requests() {
		if len(r.Body) > 0 {
			out = append(out, r.Body)
		}
	}
	return out
}

// Each body must be valid against app 2.1 (22.11) and 2.2 (24.02), schedule 1.3 (both).
func checkPublished(t *testing.T, resource, kind string, body []byte) {
	t.Helper()
	versions := map[string]string{"22.11": "2.1", "24.02": "2.2"}
	if resource == apispec.Schedule {
		versions = map[string]string{"22.11": "1.3", "24.02": "1.3"}
	}
	for release, v := range versions {
		schema, _, ok := apispec.Schema(release, resource, v, kind)
		if !ok {
			t.Fatalf("no %s %s %s in %s", resource, v, kind, release)
		}
		if err := apispec.Validate(schema, body); err != nil {
			t.Errorf("%s body invalid against %s %s (%s): %v\n%s", resource, v, kind, release, err, body)
		}
	}
}

func TestAppBodiesMatchThePublishedSchemas(t *testing.T) {
	bodies := appBodies(t, func(ctx context.Context, c *Client) error {
		if _, err := c.CreateApp(ctx, AppCreate{Name: "web", ClusterID: "0f284377-e5dc-4dcd-bacd-3197f2b8a347",
			NamespaceScopedResources: []NamespaceScope{{Namespace: "default"}, {Namespace: "db", LabelSelectors: []string{"app=mysql"}}},
			ClusterScopedResources:   []ClusterScope{{GVK: GVK{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRole"}}},
			Labels:                   []Label{{Name: "team", Value: "a"}}}); err != nil {
			return err
		}
		app, err := c.GetApp(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d")
		if err != nil {
			return err
		}
		app.Name = "web-2"
		_, err = c.UpdateApp(ctx, app)
		return err
	})
	if len(bodies) != 2 {
		t.Fatalf("%d bodies", len(bodies))
	}
	checkPublished(t, apispec.App, apispec.PostRequest, bodies[0])
	checkPublished(t, apispec.App, apispec.PutRequest, bodies[1])
	for _, want := range []string{`"version":"2.1"`, `{"namespace":"default","labelSelectors":[]}`} {
		if !strings.Contains(string(bodies[0]), want) {
			t.Errorf("POST body lacks %s: %s", want, bodies[0])
		}
	}
	// The whole object goes back: its scope too, not only what changed.
	for _, want := range []string{`"name":"web-2"`, `"namespaceScopedResources":[{"namespace":"default","labelSelectors":[]}]`,
		`"clusterID":"0f284377-e5dc-4dcd-bacd-3197f2b8a347"`} {
		if !strings.Contains(string(bodies[1]), want) {
			t.Errorf("PUT body lacks %s: %s", want, bodies[1])
		}
	}
}

// An update sends back every member it read, unknown ones included, but never the members
// that would make the PUT an in-place restore, nor links.
func TestUpdateAppKeepsUnknownMembersAndNeverRestores(t *testing.T) {
	var app App
	raw := strings.Replace(appJSON, `"name":"web",`, `"name":"web","futureField":{"kept":true},"sourceAppID":"a1b2c3d4-0000-4000-8000-000000000001",`+
		`"snapshotID":"a1b2c3d4-0000-4000-8000-000000000002","backupID":"a1b2c3d4-0000-4000-8000-000000000003","restoreFilter":{},`+
		`"links":[{"rel":"self","href":"/x"}],`, 1)
	if err := json.Unmarshal([]byte(raw), &app); err != nil {
		t.Fatal(err)
	}
	bodies := appBodies(t, func(ctx context.Context, c *Client) error {
		_, err := c.UpdateApp(ctx, &app)
		return err
	})
	if len(bodies) != 1 {
		t.Fatalf("%d bodies", len(bodies))
	}
	for _, want := range []string{`"futureField":{"kept":true}`, `"sourceAppID":"a1b2c3d4-0000-4000-8000-000000000001"`} {
		if !strings.Contains(string(bodies[0]), want) {
			t.Errorf("PUT body lacks %s: %s", want, bodies[0])
		}
	}
	for _, never := range []string{"snapshotID", "backupID", "restoreFilter", "links"} {
		if strings.Contains(string(bodies[0]), `"`+never+`"`) {
			t.Errorf("PUT body carries %s: %s", never, bodies[0])
		}
	}
}

func TestScheduleBodies(t *testing.T) {
	bodies := appBodies(t, func(ctx context.Context, c *Client) error {
		f := AppScheduleFields{Name: "hourly", Enabled: BoolPtr(true), Granularity: "hourly", Minute: "5", SnapshotRetention: "7", BackupRetention: "0"}
		if _, err := c.CreateAppSchedule(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", f); err != nil {
			return err
		}
		s, err := c.GetAppSchedule(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d")
		if err != nil {
			return err
		}
		s.SnapshotRetention = "9"
		s.Metadata.Labels = []Label{{Name: "owner", Value: "ops"}}
		_, err = c.UpdateAppSchedule(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", s)
		return err
	})
	checkPublished(t, apispec.Schedule, apispec.PostRequest, bodies[0])
	checkPublished(t, apispec.Schedule, apispec.PutRequest, bodies[1])
	if want := `{"type":"application/astra-schedule","version":"1.2","name":"hourly","enabled":"true","granularity":"hourly","minute":"5","snapshotRetention":"7","backupRetention":"0"}`; string(bodies[0]) != want {
		t.Errorf("POST body %s,\nwant %s", bodies[0], want)
	}
	// The whole schedule goes back as read, with the change: its labels too (unknown members
	// travel as for every object: TestUpdateAppKeepsUnknownMembersAndNeverRestores).
	for _, want := range []string{`"snapshotRetention":"9"`, `"name":"hourly"`, `"minute":"5"`, `"labels":[{"name":"owner","value":"ops"}]`} {
		if !strings.Contains(string(bodies[1]), want) {
			t.Errorf("PUT body lacks %s: %s", want, bodies[1])
		}
	}
}

func TestAppReady(t *testing.T) {
	done, err := AppReady(&App{ID: "a", State: "failed", StateDetails: []StateDetail{{Title: "Discovery failed", Detail: "no access"}}})
	if done || err == nil || err.Error() != "app a is failed: Discovery failed: no access" {
		t.Errorf("failed: %v %v", done, err)
	}
	for state, want := range map[string]bool{"pending": false, "discovering": false, "Ready": true} {
		if done, err := AppReady(&App{State: state}); done != want || err != nil {
			t.Errorf("%s: %v %v", state, done, err)
		}
	}
}
