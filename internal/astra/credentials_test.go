package astra

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// testKubeconfigYAML carries recognisable secrets so tests can prove they never leak.
const (
	kubeSecretToken = "eyJhbGciOiJSUzI1NiJ9.KUBE-SECRET-TOKEN.c2lnbmF0dXJl"
	kubeSecretKey   = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCktVQkUtU0VDUkVULUtFWQ=="
)

const testKubeconfigYAML = `apiVersion: v1
kind: Config
clusters:
- name: prod-east
  cluster:
    server: https://api.prod-east.example.com:6443
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t
contexts:
- name: admin@prod-east
  context:
    cluster: prod-east
    user: admin
current-context: admin@prod-east
users:
- name: admin
  user:
    token: ` + kubeSecretToken + `
    client-key-data: ` + kubeSecretKey + `
`

func TestKubeconfigCredentialEncoding(t *testing.T) {
	cc, err := KubeconfigCredential("", []byte(testKubeconfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	if cc.Name != "prod-east" || cc.KeyType != "kubeconfig" || len(cc.KeyStore) != 1 {
		t.Fatalf("got %v", cc)
	}
	raw, err := base64.StdEncoding.DecodeString(cc.KeyStore["base64"])
	if err != nil {
		t.Fatalf("keyStore.base64 is not base64: %v", err)
	}
	var doc struct {
		Clusters []struct {
			Name string `json:"name"`
		} `json:"clusters"`
		Users []struct {
			User struct {
				Token string `json:"token"`
			} `json:"user"`
		} `json:"users"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("keyStore.base64 must hold JSON (YAML -> JSON -> base64): %v\n%s", err, raw)
	}
	if doc.Clusters[0].Name != "prod-east" || doc.Users[0].User.Token != kubeSecretToken {
		t.Fatalf("content lost in conversion: %s", raw)
	}
	wantLabels := []Label{{LabelCredType, "kubeconfig"}, {LabelCloudName, "private"}}
	if fmt.Sprint(cc.Labels) != fmt.Sprint(wantLabels) {
		t.Fatalf("labels %v", cc.Labels)
	}
	named, err := KubeconfigCredential("my-cred", []byte(testKubeconfigYAML))
	if err != nil || named.Name != "my-cred" {
		t.Fatalf("%v %v", named.Name, err)
	}
	if _, err := KubeconfigCredential("x", []byte("clusters: []\ncontexts: []")); err == nil ||
		err.Error() != "kubeconfig must define exactly one cluster; found 0" {
		t.Fatalf("got %v", err)
	}
}

func TestCredentialCreateNeverPrintsSecrets(t *testing.T) {
	cc, err := KubeconfigCredential("", []byte(testKubeconfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
		out := fmt.Sprintf(format, cc)
		if strings.Contains(out, cc.KeyStore["base64"]) || !strings.Contains(out, "redacted") {
			t.Errorf("%s prints %q", format, out)
		}
	}
}

func TestCredentialValidation(t *testing.T) {
	store := map[string]string{"base64": "e30="}
	cases := []struct {
		in   CredentialCreate
		want string
	}{
		{CredentialCreate{KeyStore: store}, "astra: a credential needs a name"},
		{CredentialCreate{Name: strings.Repeat("n", 128), KeyStore: store}, "astra: a credential name has at most 127 characters, not 128"},
		{CredentialCreate{Name: "n"}, "astra: a credential needs a key store"},
		{CredentialCreate{Name: "n", KeyStore: map[string]string{"apikey": "not base64 SECRET"}}, `astra: key store entry "apikey" is not standard base64`},
	}
	for _, c := range cases {
		f := newFake(t, router(nil))
		_, err := f.client(t).CreateCredential(t.Context(), c.in)
		if err == nil || err.Error() != c.want || f.count() != 0 {
			t.Errorf("got %v (requests %d), want %q", err, f.count(), c.want)
		}
	}
}

func TestRotationSendsNoReadOnlyLabels(t *testing.T) {
	cc, err := KubeconfigCredential("", []byte(testKubeconfigYAML))
	if err != nil {
		t.Fatal(err)
	}
	body := sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.UpdateCredential(ctx, testCredential, cc)
		return err
	})
	if body["metadata"] != nil || string(body["keyType"]) != `"kubeconfig"` || string(body["name"]) != `"prod-east"` {
		t.Fatalf("rotation body members: %v", keysOf(body))
	}
	cc.Labels = append(cc.Labels, Label{"team", "storage"})
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.UpdateCredential(ctx, testCredential, cc)
		return err
	})
	if string(body["metadata"]) != `{"labels":[{"name":"team","value":"storage"}]}` {
		t.Fatalf("user labels are sent: %s", body["metadata"])
	}
	body = sentBody(t, "1.5", func(ctx context.Context, c *Client) error {
		_, err := c.CreateCredential(ctx, cc)
		return err
	})
	if !strings.Contains(string(body["metadata"]), LabelCredType) {
		t.Fatalf("a create sends the read-only labels real clients send: %s", body["metadata"])
	}
}

func keysOf(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
