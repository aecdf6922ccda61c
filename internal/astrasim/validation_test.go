package astrasim

import (
	"strings"
	"testing"
)

func clusterBody(version string, fields map[string]any) map[string]any {
	b := map[string]any{"type": "application/astra-cluster", "version": version}
	for k, v := range fields {
		b[k] = v
	}
	return b
}

func TestRequestValidation(t *testing.T) {
	e := newEnv(t, Options{})
	clusters := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
	cred := e.post("/core/v1/credentials", kubeconfigBody("v", "https://v.example.com")).expect(201).str("id")
	cases := []struct {
		name    string
		body    any
		problem int
		mention string // what schemaValidationFailure must name
	}{
		{"not JSON", `{"type":`, 7, ""},
		{"trailing garbage", `{"type":"application/astra-cluster","version":"1.5"} x`, 7, ""},
		{"empty body", ``, 7, ""},
		{"array", `[]`, 8, "object"},
		{"unknown field", clusterBody("1.5", map[string]any{"credentialID": cred, "bogus": 1}), 8, "bogus"},
		{"version from a later release", clusterBody("1.7", map[string]any{"credentialID": cred}), 8, "/version"},
		{"no version", map[string]any{"type": "application/astra-cluster", "credentialID": cred}, 8, "version"},
		{"wrong type", map[string]any{"type": "application/astra-cloud", "version": "1.5", "credentialID": cred}, 8, "/type"},
		{"name too long", clusterBody("1.5", map[string]any{"credentialID": cred, "name": strings.Repeat("n", 64)}), 8, "/name"},
		{"credentialID not a UUID", clusterBody("1.5", map[string]any{"credentialID": "abc"}), 8, "/credentialID"},
		{"capability unknown to 1.5", clusterBody("1.5", map[string]any{"privateRouteID": "r", "connectorCapabilities": []any{"connectorV2"}}), 8, "connectorCapabilities"},
		{"1.4 requires credentialID", clusterBody("1.4", map[string]any{"name": "x"}), 8, "credentialID"},
		{"1.4 has no connectorCapabilities", clusterBody("1.4", map[string]any{"credentialID": cred, "connectorCapabilities": []any{"relayV1"}}), 8, "connectorCapabilities"},
		{"undocumented field (strict)", clusterBody("1.5", map[string]any{"credentialID": cred, "connectorInstall": "pending"}), 8, "connectorInstall"},
		{"no credential, no connector", clusterBody("1.5", map[string]any{"name": "x"}), 9, ""},
		{"route without relay", clusterBody("1.5", map[string]any{"name": "x", "privateRouteID": "r", "connectorCapabilities": []any{"watcherV1"}}), 9, ""},
		{"credential and relay", clusterBody("1.5", map[string]any{"credentialID": cred, "privateRouteID": "r", "connectorCapabilities": []any{"relayV1"}}), 165, ""},
		{"markup in name", clusterBody("1.5", map[string]any{"credentialID": cred, "name": "<script>"}), 9, ""},
		{"path traversal in name", clusterBody("1.5", map[string]any{"credentialID": cred, "name": "../etc"}), 9, ""},
		{"non-ASCII name", clusterBody("1.5", map[string]any{"credentialID": cred, "name": "clüster"}), 9, ""},
		{"unknown credential", clusterBody("1.5", map[string]any{"credentialID": "0b146cda-7fc1-4f32-804c-8130a38a7e1c"}), 9, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.post(clusters, c.body).problem(c.problem)
			switch c.problem {
			case 8:
				if f := r.str("schemaValidationFailure"); !strings.Contains(f, c.mention) {
					t.Errorf("schemaValidationFailure %q does not mention %q", f, c.mention)
				}
			case 9:
				if list, _ := r.body["invalidFields"].([]any); len(list) == 0 {
					t.Errorf("problem 9 without invalidFields: %s", r.raw)
				}
			}
		})
	}
	if n := len(e.sim.st.Clusters); n != 6 {
		t.Errorf("refused POSTs created clusters: %d clusters, want the 6 seeded", n)
	}
	// The credential rule names the field to fix.
	r := e.post(clusters, clusterBody("1.5", map[string]any{"name": "x"})).problem(9)
	if reason := r.field("invalidFields", "credentialID"); !strings.Contains(reason, "privateRouteID") {
		t.Errorf("reason %q should explain the privateRouteID alternative", reason)
	}
}

func TestOversizedBody(t *testing.T) {
	e := newEnv(t, Options{})
	big := `{"type":"application/astra-cloud","version":"1.1","name":"` + strings.Repeat("x", maxBody) + `"}`
	e.post("/topology/v1/clouds", big).problem(85)
}

// TestLenientMode: the fields and mismatches real clients send (research §11) pass only
// when the simulator is lenient.
func TestLenientMode(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		e := newEnv(t, Options{Lenient: lenient})
		private := "/topology/v1/clouds/" + e.sim.Seeds().PrivateCloudID + "/clusters"
		want := func(r *result, status int) {
			t.Helper()
			if lenient {
				r.expect(status)
			} else {
				r.problem(8)
			}
		}
		// actoolkit v3: name + connectorInstall, no credential at all.
		r := e.post(private, clusterBody("1.5", map[string]any{"name": "v3", "connectorInstall": "pending"}))
		want(r, 201)
		if lenient && (r.str("state") != "pending" || r.body["connectorInstall"] != nil) {
			t.Errorf("connector registration: state %q; undocumented fields must not be echoed: %s", r.str("state"), r.raw)
		}
		// ACO 2023: a 1.4 body with 1.5 fields and no credential.
		want(e.post(private, clusterBody("1.4", map[string]any{"name": "aco", "privateRouteID": "loc-1", "connectorCapabilities": []any{"relayV1", "watcherV1"}})), 201)
		// ACO 2024: cloudID and apiServiceID in the body.
		want(e.post(private, clusterBody("1.5", map[string]any{
			"name": "aco2", "cloudID": e.sim.Seeds().PrivateCloudID, "apiServiceID": "0b146cda-7fc1-4f32-804c-8130a38a7e1c",
			"privateRouteID": "loc-2", "connectorCapabilities": []any{"relayV1"},
		})), 201)
		// actoolkit spells cloudType as the service answers it.
		cred := e.sim.Seeds().GCP.CredentialID
		want(e.post("/topology/v1/clouds", map[string]any{"type": "application/astra-cloud", "version": "1.0", "name": "gcp2", "cloudType": "GCP", "credentialID": cred}), 201)
		// ACO's managedClusters body carries connector fields.
		if lenient {
			id := e.get("/topology/v1/clusters?filter=name%20eq%20'aco'").items()[0].(map[string]any)["id"].(string)
			r := e.post("/topology/v1/managedClusters", map[string]any{
				"type": "application/astra-managedCluster", "version": "1.2", "id": id,
				"connectorInstall": "installed", "tridentManagedStateDesired": "managed", "clusterType": "kubernetes",
			}).expect(201)
			if r.str("managedState") != "managed" || r.str("state") != "running" {
				t.Errorf("the connector's manage call: %s/%s", r.str("managedState"), r.str("state"))
			}
		}
		// A cloudID that contradicts the path is a conflict even when lenient.
		if lenient {
			e.post(private, clusterBody("1.5", map[string]any{"name": "x", "connectorInstall": "pending", "cloudID": e.sim.Seeds().GCP.CloudID})).problem(10)
		}
	}
}

func TestUnpublishedVersionsUseTheOldestSchemaListingThem(t *testing.T) {
	e := newEnv(t, Options{})
	cred := e.post("/core/v1/credentials", kubeconfigBody("old", "https://old.example.com")).expect(201).str("id")
	// cluster 1.1 was never published: the 1.3 schema (which lists 1.1) applies, so the
	// answer has the 1.3 field set and echoes 1.1.
	r := e.post("/topology/v1/clouds/"+e.sim.Seeds().PrivateCloudID+"/clusters", clusterBody("1.1", map[string]any{"credentialID": cred, "name": "nas"})).expect(201)
	if r.str("version") != "1.1" {
		t.Errorf("version %q, want the 1.1 the client sent", r.str("version"))
	}
	if _, has := r.body["connectorCapabilities"]; has {
		t.Error("a 1.1 cluster must not carry connectorCapabilities (added in 1.5)")
	}
	if e.get("/topology/v1/clusters/"+r.str("id")).str("version") != "1.1" {
		t.Error("GET must answer the version last written")
	}
	// A 1.1 body without credentialID fails as the 1.3 schema requires it.
	e.post("/topology/v1/clouds/"+e.sim.Seeds().PrivateCloudID+"/clusters", clusterBody("1.1", map[string]any{"name": "x"})).problem(8)
}
