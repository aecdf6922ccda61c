package astra

import (
	"context"
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
		_, err := c.UpdateApp(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", AppUpdate{Name: "web-2"})
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
	if want := `{"type":"application/astra-app","version":"2.1","name":"web-2","metadata":{"labels":[]}}`; string(bodies[1]) != want {
		t.Errorf("PUT body %s, want %s", bodies[1], want)
	}
}

func TestScheduleBodiesSendOnlyTheGranularitysFields(t *testing.T) {
	bodies := appBodies(t, func(ctx context.Context, c *Client) error {
		f := AppScheduleFields{Name: "hourly", Enabled: BoolPtr(true), Granularity: "hourly", Minute: "5", SnapshotRetention: "7", BackupRetention: "0"}
		if _, err := c.CreateAppSchedule(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", f); err != nil {
			return err
		}
		f.Granularity, f.Hour, f.DayOfMonth = "monthly", "2", "31"
		_, err := c.UpdateAppSchedule(ctx, "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d", "1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d", f)
		return err
	})
	checkPublished(t, apispec.Schedule, apispec.PostRequest, bodies[0])
	checkPublished(t, apispec.Schedule, apispec.PutRequest, bodies[1])
	if want := `{"type":"application/astra-schedule","version":"1.2","name":"hourly","enabled":"true","granularity":"hourly","minute":"5","snapshotRetention":"7","backupRetention":"0"}`; string(bodies[0]) != want {
		t.Errorf("POST body %s,\nwant %s", bodies[0], want)
	}
	if strings.Contains(string(bodies[1]), "dayOfWeek") || !strings.Contains(string(bodies[1]), `"dayOfMonth":"31"`) {
		t.Errorf("PUT body %s", bodies[1])
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
