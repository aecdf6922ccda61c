package astrasim

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

func TestKeyStoreIsNeverReturned(t *testing.T) {
	e := newEnv(t, Options{PutReturnsBody: true})
	body := kubeconfigBody("secret", "https://secret.example.com")
	enc := body["keyStore"].(map[string]any)["base64"].(string)
	created := e.post("/core/v1/credentials", body).expect(201)
	id := created.str("id")
	answers := [][]byte{
		created.raw,
		e.get("/core/v1/credentials/" + id).raw,
		e.get("/core/v1/credentials").raw,
		e.put("/core/v1/credentials/"+id, body).expect(200).raw,
	}
	for i, raw := range answers {
		if bytes.Contains(raw, []byte("keyStore")) || bytes.Contains(raw, []byte(enc[:20])) || bytes.Contains(raw, []byte("sim-fake-token")) {
			t.Errorf("answer %d leaks the keyStore: %s", i, raw)
		}
	}
	if created.str("keyType") != "kubeconfig" || created.str("valid") != "true" {
		t.Errorf("credential: %s", created.raw)
	}
	snap, _ := e.sim.Snapshot()
	if bytes.Contains(snap, []byte(enc[:20])) || bytes.Contains(snap, []byte("sim-fake-token")) {
		t.Error("the snapshot holds kubeconfig content")
	}
}

func encodeKubeconfig(doc map[string]any) string {
	data, _ := json.Marshal(doc)
	return base64.StdEncoding.EncodeToString(data)
}

func TestKubeconfigValidation(t *testing.T) {
	cluster := func(name, server string) map[string]any {
		return map[string]any{"name": name, "cluster": map[string]any{"server": server}}
	}
	context := func(name, cl, user string) map[string]any {
		return map[string]any{"name": name, "context": map[string]any{"cluster": cl, "user": user}}
	}
	users := []any{map[string]any{"name": "u", "user": map[string]any{"token": "t"}}}
	one := map[string]any{"clusters": []any{cluster("a", "https://a")}, "contexts": []any{context("a", "a", "u")}, "users": users}
	yamlKC := base64.StdEncoding.EncodeToString(TestKubeconfig("y", "https://y.example.com"))
	cases := []struct {
		name     string
		keyStore map[string]any
		field    string
		reason   string
		lenient  bool // accepted when lenient
	}{
		{"two clusters", map[string]any{"base64": encodeKubeconfig(map[string]any{"clusters": []any{cluster("a", "https://a"), cluster("b", "https://b")}, "contexts": []any{context("a", "a", "u")}, "users": users})}, "keyStore.base64", "exactly one cluster", false},
		{"two contexts", map[string]any{"base64": encodeKubeconfig(map[string]any{"clusters": []any{cluster("a", "https://a")}, "contexts": []any{context("a", "a", "u"), context("b", "a", "u")}, "users": users})}, "keyStore.base64", "exactly one context", false},
		{"context of another cluster", map[string]any{"base64": encodeKubeconfig(map[string]any{"clusters": []any{cluster("a", "https://a")}, "contexts": []any{context("a", "z", "u")}, "users": users})}, "keyStore.base64", "context must use", false},
		{"unknown user", map[string]any{"base64": encodeKubeconfig(map[string]any{"clusters": []any{cluster("a", "https://a")}, "contexts": []any{context("a", "a", "nobody")}, "users": users})}, "keyStore.base64", "user", false},
		{"no server", map[string]any{"base64": encodeKubeconfig(map[string]any{"clusters": []any{cluster("a", "")}, "contexts": []any{context("a", "a", "u")}, "users": users})}, "keyStore.base64", "server", false},
		{"YAML", map[string]any{"base64": yamlKC}, "keyStore.base64", "JSON", true},
		{"other key", map[string]any{"base64": encodeKubeconfig(one), "token": "SGkh"}, "keyStore", "exactly one key", false},
		{"no base64 key", map[string]any{"kubeconfig": encodeKubeconfig(one)}, "keyStore", "exactly one key", false},
	}
	for _, c := range cases {
		for _, lenient := range []bool{false, true} {
			e := newEnv(t, Options{Lenient: lenient})
			r := e.post("/core/v1/credentials", map[string]any{
				"type": "application/astra-credential", "version": "1.1", "name": "kc", "keyType": "kubeconfig", "keyStore": c.keyStore,
			})
			if lenient && c.lenient {
				r.expect(201)
				continue
			}
			r.problem(9)
			if reason := r.field("invalidFields", c.field); !strings.Contains(reason, c.reason) {
				t.Errorf("%s: reason %q, want it to mention %q", c.name, reason, c.reason)
			}
		}
	}
	e := newEnv(t, Options{})
	e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "s3", "keyType": "s3", "keyStore": map[string]any{"accessKey": "SGkh"}}).problem(9)
	e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "s3", "keyType": "s3", "keyStore": map[string]any{"accessKey": "SGkh", "accessSecret": "SGkh"}}).expect(201)
	e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "empty", "keyStore": map[string]any{}}).problem(9)
	e.post("/core/v1/credentials", map[string]any{"type": "application/astra-credential", "version": "1.1", "name": "b", "keyStore": map[string]any{"k": "not base64!"}}).problem(8)
}

// TestKubeconfigRotation: a cluster whose credential stops reaching it goes to state
// removed; a working kubeconfig brings it back (re-collection).
func TestKubeconfigRotation(t *testing.T) {
	e := newEnv(t, Options{})
	credID, id := e.addPrivateCluster("rotating")
	e.manage(id).expect(201)
	rotate := func(server string, valid string) {
		t.Helper()
		b := kubeconfigBody("rotating", server)
		delete(b, "metadata")
		if valid != "" {
			b["valid"] = valid
		}
		e.put("/core/v1/credentials/"+credID, b).expect(204)
	}
	state := func() (string, string) {
		r := e.get("/topology/v1/clusters/" + id).expect(200)
		reasons, _ := r.body["stateUnready"].([]any)
		reason := ""
		if len(reasons) > 0 {
			reason = reasons[0].(string)
		}
		return r.str("state"), reason
	}
	steps := []struct {
		server, valid string
		state, reason string
	}{
		{"https://rotating.example.com:6443", "", "running", ""},
		{"https://another-cluster.example.com", "", "removed", "different cluster"},
		{"https://rotating.example.com:6443", "", "running", ""},
		{"https://rotating.example.invalid", "", "removed", "can't be reached"},
		{"https://rotating.example.com:6443", "false", "removed", "not valid"},
		{"https://rotating.example.com:6443", "true", "running", ""},
	}
	for i, s := range steps {
		rotate(s.server, s.valid)
		st, reason := state()
		if st != s.state || !strings.Contains(reason, s.reason) {
			t.Errorf("step %d (%s valid=%q): state %q reason %q, want %q %q", i, s.server, s.valid, st, reason, s.state, s.reason)
		}
	}
	if e.get("/topology/v1/clusters/"+id).str("managedState") != "managed" {
		t.Error("a removed cluster stays managed")
	}
	// keyType can't change.
	b := kubeconfigBody("rotating", "https://rotating.example.com:6443")
	b["keyType"] = "generic"
	e.put("/core/v1/credentials/"+credID, b).problem(10)
	// Deleting the credential in use is allowed and breaks the cluster.
	e.del("/core/v1/credentials/" + credID).expect(204)
	if st, reason := state(); st != "removed" || !strings.Contains(reason, "deleted") {
		t.Errorf("after deleting its credential: %q %q", st, reason)
	}
	e.get("/core/v1/credentials/" + credID).problem(2)
	e.del("/core/v1/credentials/" + credID).problem(1)
	// A new credential through PUT cluster brings it back.
	fresh := e.post("/core/v1/credentials", kubeconfigBody("rotating-2", "https://rotating.example.com:6443")).expect(201).str("id")
	e.put("/topology/v1/clusters/"+id, clusterBody("1.5", map[string]any{"credentialID": fresh})).expect(204)
	if st, _ := state(); st != "running" {
		t.Errorf("after PUT cluster credentialID: %q", st)
	}
}

// bucketCredentialBody is an s3 or service-account credential as NetApp's toolkit sends it.
func bucketCredentialBody(keyType, credType, cloudName string, keyStore map[string]any) map[string]any {
	return map[string]any{
		"type": "application/astra-credential", "version": "1.1", "name": "bucket-cred", "keyType": keyType, "keyStore": keyStore,
		"metadata": map[string]any{"labels": []any{
			map[string]any{"name": labelCredType, "value": credType},
			map[string]any{"name": labelCloudName, "value": cloudName},
		}},
	}
}

// TestS3AndServiceAccountCredentials: keyType s3 and generic are accepted with the key
// store the real service expects, refused (problem 9, naming the key) otherwise, never
// echoed, and classified for the bucket model (credentialKind, bucketCredential).
func TestS3AndServiceAccountCredentials(t *testing.T) {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	secret := b64("s3-secret-not-echoed")
	e := newEnv(t, Options{PutReturnsBody: true})
	s3 := bucketCredentialBody("s3", "s3", "s3", map[string]any{"accessKey": b64("AKIA"), "accessSecret": secret})
	sa := bucketCredentialBody("generic", "service-account", "GCP", map[string]any{"base64": b64(`{"type":"service_account"}`)})
	s3ID := e.post("/core/v1/credentials", s3).expect(201).str("id")
	saID := e.post("/core/v1/credentials", sa).expect(201).str("id")
	kubeID := e.post("/core/v1/credentials", kubeconfigBody("k", "https://k.example.com")).expect(201).str("id")
	answers := [][]byte{e.get("/core/v1/credentials/" + s3ID).raw, e.get("/core/v1/credentials").raw,
		e.put("/core/v1/credentials/"+s3ID, s3).expect(200).raw, e.put("/core/v1/credentials/"+saID, sa).expect(200).raw}
	for i, raw := range answers {
		if bytes.Contains(raw, []byte("keyStore")) || bytes.Contains(raw, []byte(secret)) {
			t.Errorf("answer %d leaks the keyStore: %s", i, raw)
		}
	}
	if got, want := e.sim.CredentialKeyDigest(s3ID), KeyStoreDigest(map[string]string{"accessKey": b64("AKIA"), "accessSecret": secret}); got != want || got == "" {
		t.Errorf("key digest %q, want %q", got, want)
	}
	if snap, _ := e.sim.Snapshot(); bytes.Contains(snap, []byte(secret)) {
		t.Error("the snapshot holds the s3 secret")
	}
	for id, want := range map[string]struct {
		kind   string
		bucket bool
	}{s3ID: {"s3", true}, saID: {"service-account", true}, kubeID: {"kubeconfig", false}, "no-such-id": {"", false}} {
		if got, bucket := e.sim.st.credentialKind(id), e.sim.st.bucketCredential(id); got != want.kind || bucket != want.bucket {
			t.Errorf("credential %s: kind %q bucket %v, want %q %v", id, got, bucket, want.kind, want.bucket)
		}
	}
	cases := []struct {
		name, keyType string
		keyStore      map[string]any
		field, reason string
	}{
		{"s3 without secret", "s3", map[string]any{"accessKey": b64("AKIA")}, "keyStore", "exactly accessKey and accessSecret"},
		{"s3 with an extra key", "s3", map[string]any{"accessKey": b64("a"), "accessSecret": b64("b"), "token": b64("c")}, "keyStore", "exactly accessKey and accessSecret"},
		{"generic empty", "generic", map[string]any{}, "keyStore", "at least one key"},
		{"generic empty value", "generic", map[string]any{"base64": ""}, "keyStore.base64", "non-empty base64"},
	}
	for _, c := range cases {
		r := e.post("/core/v1/credentials", bucketCredentialBody(c.keyType, "s3", "s3", c.keyStore))
		r.problem(9)
		if reason := r.field("invalidFields", c.field); !strings.Contains(reason, c.reason) {
			t.Errorf("%s: reason %q for %s, want it to mention %q", c.name, reason, c.field, c.reason)
		}
	}
}
