package astra

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

const (
	testApp      = "9a0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d"
	testSnapshot = "05c357ed-30ce-432f-bbb0-9d5ff1695428"
	testSource   = "50e89023-ba84-435d-bb47-1833f4c250ff"
	testHook     = "6f9e8190-96fd-420c-be36-7324c6b54ce1"

	snapshotJSON = `{"type":"application/astra-appSnap","version":"1.1","id":"` + testSnapshot + `","name":"s","state":"completed",
"stateUnready":[],"metadata":{"labels":[]}}`
	backupJSON = `{"type":"application/astra-appBackup","version":"1.1","id":"bab39d53-2d04-4297-b92e-58df89a2117b","name":"b",
"bucketID":"` + testBucket + `","state":"pending","stateUnready":[],"metadata":{"labels":[]}}`
	// hookSourceJSON and hookJSON are shaped like the answers NetApp's toolkit docs show.
	hookSourceJSON = `{"type":"application/astra-hookSource","version":"1.0","id":"` + testSource + `","name":"testScript",
"private":"false","preloaded":"false","sourceType":"script","source":"IyEvYmluL2Jhc2gKZWNobyAidGhpcyBpcyBqdXN0IGFuIGV4YW1wbGUi",
"sourceMD5Checksum":"8ad9d02befca7ef9a0fd51f7ec4aebe7","description":"test upload","metadata":{"labels":[],
"creationTimestamp":"2022-08-02T14:41:51Z","modificationTimestamp":"2022-08-02T14:41:51Z","createdBy":"7cc9170d-d227-49ac-bf9e-6b080ce59524"}}`
	hookJSON = `{"type":"application/astra-executionHook","version":"1.3","id":"` + testHook + `","name":"wordpress-mariadb-pre-snap",
"hookType":"custom","matchingCriteria":[{"type":"containerImage","value":"\\bmariadb\\b"}],"action":"backup","stage":"pre",
"hookSourceID":"` + testSource + `","arguments":["pre"],"appID":"` + testApp + `","enabled":true,
"matchingContainers":[{"podName":"db-0","podLabels":[{"name":"app","value":"db"}],"containerImage":"mariadb:11","containerName":"db","namespaceName":"db"}],
"matchingImages":["mariadb:11"],"metadata":{"labels":[]}}`
)

// dayTwoBodies sends every day-two create and update at a cluster version and returns the
// bodies, keyed "METHOD resource".
func dayTwoBodies(t *testing.T, clusterVersion string) map[string][]byte {
	t.Helper()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		switch {
		case strings.Contains(r.URL.Path, "/appSnaps"):
			reply(w, 201, "application/json", snapshotJSON)
		case strings.Contains(r.URL.Path, "/appBackups"):
			reply(w, 201, "application/json", backupJSON)
		case strings.Contains(r.URL.Path, "/hookSources"):
			reply(w, 201, "application/json", hookSourceJSON)
		default:
			reply(w, 201, "application/json", hookJSON)
		}
	})
	c := f.client(t, func(cfg *Config) { cfg.ClusterVersion = clusterVersion })
	ctx := context.Background()
	var src HookSource
	var hook ExecutionHook
	if err := json.Unmarshal([]byte(hookSourceJSON), &src); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(hookJSON), &hook); err != nil {
		t.Fatal(err)
	}
	calls := []func() error{
		func() error {
			_, err := c.CreateAppSnapshot(ctx, testApp, AppSnapshotCreate{Name: "nightly"})
			return err
		},
		func() error {
			_, err := c.CreateAppBackup(ctx, testApp, AppBackupCreate{Name: "weekly", BucketID: testBucket, SnapshotID: testSnapshot})
			return err
		},
		func() error {
			_, err := c.CreateHookSource(ctx, HookSourceCreate{Name: "freeze", Script: script, Description: "d", Labels: []Label{{"team", "db"}}})
			return err
		},
		func() error {
			_, err := c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "h", AppID: testApp, HookSourceID: testSource, Action: "snapshot",
				Stage: "pre", Arguments: []string{"pre"}, MatchingCriteria: []MatchingCriterion{{"podLabel", "^app=db$"}}, Enabled: BoolPtr(false)})
			return err
		},
		func() error { _, err := c.UpdateHookSource(ctx, &src); return err },
		func() error { _, err := c.UpdateExecutionHook(ctx, &hook); return err },
	}
	for _, call := range calls {
		if err := call(); err != nil {
			t.Fatalf("%s: %v", clusterVersion, err)
		}
	}
	out := map[string][]byte{}
	for _, r := range f.requests() {
		if len(r.Body) == 0 {
			continue
		}
		var m struct{ Type string }
		_ = json.Unmarshal(r.Body, &m)
		out[r.Method+" "+strings.TrimPrefix(m.Type, "application/astra-")] = r.Body
	}
	return out
}

// Every day-two body, at every cluster version, is valid against the published schema of
// the version it names, in the release that version maps to; and it names that version.
func TestDayTwoBodiesMatchThePublishedSchemas(t *testing.T) {
	for _, cv := range ClusterVersions {
		release := ReleaseFor(cv)
		bodies := dayTwoBodies(t, cv)
		want := map[string][2]string{
			"POST appSnap":       {apispec.AppSnap, AppSnapVersionFor(cv)},
			"POST appBackup":     {apispec.AppBackup, AppBackupVersionFor(cv)},
			"POST hookSource":    {apispec.HookSource, HookSourceVersion},
			"POST executionHook": {apispec.ExecutionHook, ExecutionHookVersionFor(cv)},
			"PUT hookSource":     {apispec.HookSource, HookSourceVersion},
			"PUT executionHook":  {apispec.ExecutionHook, ExecutionHookVersionFor(cv)},
		}
		if len(bodies) != len(want) {
			t.Fatalf("%s: %d bodies, want %d", cv, len(bodies), len(want))
		}
		for key, w := range want {
			body := bodies[key]
			kind := apispec.PostRequest
			if strings.HasPrefix(key, "PUT") {
				kind = apispec.PutRequest
			}
			if !strings.Contains(string(body), `"version":"`+w[1]+`"`) {
				t.Errorf("%s %s names another version than %s: %s", cv, key, w[1], body)
			}
			schema, _, ok := apispec.Schema(release, w[0], w[1], kind)
			if !ok {
				t.Fatalf("no %s %s %s in %s", w[0], w[1], kind, release)
			}
			if err := apispec.Validate(schema, body); err != nil {
				t.Errorf("%s %s (release %s) is invalid: %v\n%s", cv, key, release, err, body)
			}
		}
	}
}

// What the bodies hold: the script encoded, the service's members left out of updates, and
// a hook's lists always sent.
func TestDayTwoBodiesContent(t *testing.T) {
	bodies := dayTwoBodies(t, "1.7")
	if got := string(bodies["POST hookSource"]); got != `{"type":"application/astra-hookSource","version":"1.0","name":"freeze","sourceType":"script","source":"`+
		EncodeScript(script)+`","description":"d","metadata":{"labels":[{"name":"team","value":"db"}]}}` {
		t.Errorf("hook source POST: %s", got)
	}
	if got := string(bodies["POST executionHook"]); got != `{"type":"application/astra-executionHook","version":"1.3","name":"h","hookType":"custom","appID":"`+testApp+
		`","hookSourceID":"`+testSource+`","action":"snapshot","stage":"pre","arguments":["pre"],"matchingCriteria":[{"type":"podLabel","value":"^app=db$"}],"enabled":"false"}` {
		t.Errorf("hook POST: %s", got)
	}
	var put map[string]json.RawMessage
	if err := json.Unmarshal(bodies["PUT executionHook"], &put); err != nil {
		t.Fatal(err)
	}
	if put["matchingContainers"] != nil || put["matchingImages"] != nil || string(put["enabled"]) != `"true"` || string(put["arguments"]) != `["pre"]` {
		t.Errorf("hook PUT: %s", bodies["PUT executionHook"])
	}
	if got := string(bodies["POST appSnap"]); got != `{"type":"application/astra-appSnap","version":"1.3","name":"nightly"}` {
		t.Errorf("snapshot POST: %s", got)
	}
	if strings.Contains(string(bodies["PUT hookSource"]), "sourceMD5Checksum") {
		t.Errorf("hook source PUT sends the checksum: %s", bodies["PUT hookSource"])
	}
}

func TestDayTwoDecodingIsTolerant(t *testing.T) {
	var h ExecutionHook
	withUnknown := strings.Replace(hookJSON, `"metadata"`, `"runOrder":3,"metadata"`, 1)
	if err := json.Unmarshal([]byte(withUnknown), &h); err != nil {
		t.Fatal(err)
	}
	if !h.Enabled.Value() || string(h.Extra["runOrder"]) != "3" || len(h.MatchingContainers) != 1 || h.MatchingContainers[0].PodLabels[0].Value != "db" {
		t.Errorf("decoded: %+v", h)
	}
	var b AppBackup
	if err := json.Unmarshal([]byte(`{"type":"application/astra-appBackup","version":"1.2","id":"x","state":"Completed","percentDone":"100","totalBytes":5}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.PercentDone != nil || string(b.Extra["percentDone"]) != `"100"` || *b.TotalBytes != 5 {
		t.Errorf("an ill-typed member is kept, the rest decoded: %+v", b)
	}
	if done, err := AppBackupCompleted(&b); !done || err != nil {
		t.Errorf("mixed-case completed: %v %v", done, err)
	}
	out, err := json.Marshal(b)
	if err != nil || !strings.Contains(string(out), `"percentDone":"100"`) {
		t.Errorf("round trip: %s %v", out, err)
	}
}
