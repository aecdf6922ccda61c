package kubeconfig

import (
	"encoding/json"
	"strings"
	"testing"
)

const secret = "S3CR3T-TOKEN-VALUE"

const valid = `apiVersion: v1
kind: Config
clusters:
- name: prod
  cluster:
    server: https://prod.example.com:6443
contexts:
- name: prod-admin
  context:
    cluster: prod
    user: admin
current-context: prod-admin
users:
- name: admin
  user:
    token: ` + secret + `
`

func TestParseAcceptsYAMLAndJSON(t *testing.T) {
	doc, info, err := Parse([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	want := Info{ClusterName: "prod", ContextName: "prod-admin", Server: "https://prod.example.com:6443", User: "admin"}
	if info != want {
		t.Fatalf("info %+v, want %+v", info, want)
	}
	if strings.ContainsAny(string(doc), "\n ") {
		t.Fatalf("JSON is not compact: %s", doc)
	}
	var decoded map[string]any
	if err := json.Unmarshal(doc, &decoded); err != nil || decoded["current-context"] != "prod-admin" || !strings.Contains(string(doc), secret) {
		t.Fatalf("re-encoded document lost content: %s (%v)", doc, err)
	}
	// The JSON form parses to the same document.
	again, info2, err := Parse(doc)
	if err != nil || string(again) != string(doc) || info2 != info {
		t.Fatalf("JSON input: %v %s", err, again)
	}
	// Pretty JSON is accepted too and compacted.
	pretty, _ := json.MarshalIndent(decoded, "", "  ")
	if compacted, _, err := Parse(pretty); err != nil || string(compacted) != string(doc) {
		t.Fatalf("pretty JSON: %v %s", err, compacted)
	}
}

func TestParseRefusesWhatAstraRefuses(t *testing.T) {
	twoClusters := strings.Replace(valid, "contexts:", "- name: other\n  cluster:\n    server: https://other.example.com\ncontexts:", 1)
	twoContexts := strings.Replace(valid, "current-context:", "- name: second\n  context:\n    cluster: prod\n    user: admin\ncurrent-context:", 1)
	otherCluster := strings.Replace(valid, "    cluster: prod\n", "    cluster: elsewhere\n", 1)
	cases := []struct {
		name, text, want string
	}{
		{"two clusters", twoClusters, "kubeconfig must define exactly one cluster; found 2 (\"prod\", \"other\"). " + minifyFix},
		{"two contexts", twoContexts, "kubeconfig must define exactly one context; found 2 (\"prod-admin\", \"second\"). " +
			"Write one with only the context of this cluster: `kubectl config view --minify --flatten --context=NAME > cluster.kubeconfig`"},
		{"no clusters", "contexts: []\n", "kubeconfig must define exactly one cluster; found 0"},
		{"context pointing at another cluster", otherCluster, "kubeconfig's context refers to a cluster other than the one it defines"},
		{"user not defined", strings.Replace(valid, "user: admin", "user: nobody", 1), "kubeconfig's context refers to a user it does not define"},
		{"current-context elsewhere", strings.Replace(valid, "current-context: prod-admin", "current-context: gone", 1), "kubeconfig's current-context is not the context it defines"},
		{"no server", strings.Replace(valid, "    server: https://prod.example.com:6443\n", "    insecure-skip-tls-verify: true\n", 1), "kubeconfig's cluster has no server URL"},
		{"not YAML", "clusters: [\n  token: " + secret + "\n  - :", "kubeconfig is not valid YAML or JSON (line "},
		{"a scalar", secret, "kubeconfig is not a YAML or JSON mapping"},
		{"a list", "- " + secret, "kubeconfig is not a YAML or JSON mapping"},
		{"empty", "  \n", "kubeconfig is empty"},
		{"wrong shape", "clusters: {name: " + secret + "}\n", "kubeconfig has an unexpected shape: clusters should be a list"},
		{"wrong nested shape", "clusters:\n- name: prod\n  cluster: " + secret + "\n", "kubeconfig has an unexpected shape: clusters.cluster should be a mapping"},
	}
	for _, c := range cases {
		_, _, err := Parse([]byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
			continue
		}
		if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "prod.example.com") {
			t.Errorf("%s: the error quotes the kubeconfig: %v", c.name, err)
		}
	}
}
