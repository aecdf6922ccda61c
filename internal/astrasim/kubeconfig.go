package astrasim

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"sigs.k8s.io/yaml"
)

// kubeInfo is what the simulator keeps of a kubeconfig: never the content (tokens,
// keys), only the cluster it points at.
type kubeInfo struct {
	ClusterName string `json:"clusterName"`
	Server      string `json:"server"`
}

// apiServiceID is the cluster identity the service derives from the kubernetes Service;
// the simulator derives it from the API server URL, so the same cluster is recognised.
func (k *kubeInfo) apiServiceID() string { return uuid5(strings.TrimRight(k.Server, "/")) }

// unreachable: a server under the reserved ".invalid" domain stands for a cluster the
// service cannot reach with this kubeconfig.
func (k *kubeInfo) unreachable() bool {
	u, err := url.Parse(k.Server)
	return err != nil || strings.HasSuffix(strings.ToLower(u.Hostname()), ".invalid")
}

type kubeconfigDoc struct {
	Kind     string `json:"kind"`
	Clusters []struct {
		Name    string `json:"name"`
		Cluster struct {
			Server string `json:"server"`
		} `json:"cluster"`
	} `json:"clusters"`
	Contexts []struct {
		Name    string `json:"name"`
		Context struct {
			Cluster string `json:"cluster"`
			User    string `json:"user"`
		} `json:"context"`
	} `json:"contexts"`
	Users []struct {
		Name string `json:"name"`
	} `json:"users"`
}

// parseKubeconfig checks keyStore.base64 of a kubeconfig credential: base64 of a JSON
// kubeconfig (YAML too when lenient) with exactly one cluster and one context that uses
// it. The error text is safe to show: it never quotes the content.
func parseKubeconfig(encoded string, allowYAML bool) (*kubeInfo, error) {
	raw, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, fmt.Errorf("keyStore.base64 must be base64")
	}
	var doc kubeconfigDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		if !allowYAML {
			return nil, fmt.Errorf("keyStore.base64 must hold a kubeconfig converted to JSON")
		}
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("keyStore.base64 must hold a kubeconfig in JSON or YAML")
		}
	}
	if doc.Kind != "" && doc.Kind != "Config" {
		return nil, fmt.Errorf("the kubeconfig's kind must be Config")
	}
	if len(doc.Clusters) != 1 {
		return nil, fmt.Errorf("the kubeconfig must describe exactly one cluster; it has %d", len(doc.Clusters))
	}
	if len(doc.Contexts) != 1 {
		return nil, fmt.Errorf("the kubeconfig must have exactly one context; it has %d", len(doc.Contexts))
	}
	cl, ctx := doc.Clusters[0], doc.Contexts[0]
	if cl.Name == "" || ctx.Context.Cluster != cl.Name {
		return nil, fmt.Errorf("the kubeconfig's context must use its cluster")
	}
	if ctx.Context.User != "" {
		found := false
		for _, u := range doc.Users {
			found = found || u.Name == ctx.Context.User
		}
		if !found {
			return nil, fmt.Errorf("the kubeconfig's context names a user it does not define")
		}
	}
	u, err := url.Parse(cl.Cluster.Server)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("the kubeconfig's cluster server must be an http(s) URL")
	}
	return &kubeInfo{ClusterName: cl.Name, Server: cl.Cluster.Server}, nil
}

// TestKubeconfig returns a valid single-cluster, single-context kubeconfig (YAML) with a
// fake token, for tests and examples. A server under ".invalid" makes a cluster the
// simulator treats as unreachable.
func TestKubeconfig(clusterName, server string) []byte {
	user := clusterName + "-admin"
	return []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: %[1]s
  cluster:
    server: %[2]s
    insecure-skip-tls-verify: true
contexts:
- name: %[1]s
  context:
    cluster: %[1]s
    user: %[3]s
current-context: %[1]s
preferences: {}
users:
- name: %[3]s
  user:
    token: sim-fake-token-not-a-secret
`, yamlQuote(clusterName), yamlQuote(server), yamlQuote(user)))
}

// yamlQuote makes any string a safe YAML scalar (JSON strings are YAML).
func yamlQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
