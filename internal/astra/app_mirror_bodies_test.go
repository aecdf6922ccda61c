package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

const testMirrorJSON = `{"type":"application/astra-appMirror","version":"1.0","id":"3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
"sourceAppID":"` + testApp + `","state":"establishing","stateDesired":"established"}`

// Every replication body, at every cluster version, is valid against the published schema
// of the version it names in the release that version maps to: appMirror 1.0 in 22.11 and
// 23.05, 1.1 from 23.07 (the POST with its mapping and storage class; the PUTs of a
// failover and of a reverse); and the custom replicating schedule.
func TestReplicationBodiesMatchThePublishedSchemas(t *testing.T) {
	for _, cv := range ClusterVersions {
		release := ReleaseFor(cv)
		f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
			if strings.Contains(r.URL.Path, "/schedules") {
				reply(w, 201, "application/json", `{"type":"application/astra-schedule","version":"1.2","id":"s","name":"r"}`)
				return
			}
			if r.Method == http.MethodPut {
				w.WriteHeader(http.StatusNoContent)
				return
			}
			reply(w, 201, "application/json", testMirrorJSON)
		})
		c := f.client(t, func(cfg *Config) { cfg.ClusterVersion = cv })
		ctx := context.Background()
		src, dst := "1bbe318e-e6a8-4e3b-b5bb-32d1f0669ad6", "b4f4a525-c5d1-4f02-a6d5-076151ca7fd2"
		if _, err := c.CreateAppMirror(ctx, AppMirrorCreate{SourceAppID: testApp, DestinationClusterID: dst,
			NamespaceMapping: []AppMirrorNamespaces{{ClusterID: src, Namespaces: []string{"web"}}, {ClusterID: dst, Namespaces: []string{"web-dr"}}},
			StorageClasses:   []AppMirrorStorageClass{{ClusterID: dst, StorageClassName: "ontap-gold"}}}); err != nil {
			t.Fatal(err)
		}
		for _, change := range []AppMirrorChange{{StateDesired: MirrorFailedOver}, {StateDesired: MirrorEstablished,
			SourceAppID: testApp, SourceClusterID: dst, DestinationAppID: testSource, DestinationClusterID: src}} {
			if _, err := c.ChangeAppMirror(ctx, "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f", change); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.CreateAppSchedule(ctx, testApp, AppScheduleFields{Name: "r", Granularity: "custom",
			RecurrenceRule: "DTSTART:20220101T000000Z\nRRULE:FREQ=MINUTELY;INTERVAL=5", Replicate: BoolPtr(true),
			SnapshotRetention: "2", BackupRetention: "0"}); err != nil {
			t.Fatal(err)
		}
		checked := 0
		for _, r := range f.requests() {
			if len(r.Body) == 0 {
				continue
			}
			var m struct{ Type, Version string }
			if err := json.Unmarshal(r.Body, &m); err != nil {
				t.Fatal(err)
			}
			resource := strings.TrimPrefix(m.Type, "application/astra-")
			if resource == apispec.AppMirror && m.Version != AppMirrorVersionFor(cv) {
				t.Errorf("%s: %s names appMirror %s, want %s", cv, r.Method, m.Version, AppMirrorVersionFor(cv))
			}
			kind := apispec.PostRequest
			if r.Method == http.MethodPut {
				kind = apispec.PutRequest
			}
			version := m.Version
			if resource == apispec.Schedule {
				version = "1.3" // the one schedule schema each release publishes (its enum takes 1.0-1.3)
			}
			schema, _, ok := apispec.Schema(release, resource, version, kind)
			if !ok {
				t.Fatalf("no %s %s %s in %s", resource, version, kind, release)
			}
			if err := apispec.Validate(schema, r.Body); err != nil {
				t.Errorf("%s %s %s (release %s) is invalid: %v\n%s", cv, r.Method, resource, release, err, r.Body)
			}
			checked++
		}
		if checked != 4 {
			t.Fatalf("%s: %d bodies checked, want 4", cv, checked)
		}
	}
}
