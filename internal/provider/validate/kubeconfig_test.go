package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// kubeconfigSecret is the token of the test kubeconfigs; no diagnostic may contain it.
const kubeconfigSecret = "sim-fake-token-not-a-secret"

// TestKubeconfig checks the kubeconfig validator's exact diagnostics: the summary, the
// kubeconfig package's reason as detail, the attribute path, and never the kubeconfig's
// content (it holds secrets).
func TestKubeconfig(t *testing.T) {
	valid := string(astrasim.TestKubeconfig("prod-east", "https://prod-east.example.com:6443"))
	if !strings.Contains(valid, kubeconfigSecret) {
		t.Fatalf("the fixture no longer holds the token %q, so the no-secret assertion would prove nothing", kubeconfigSecret)
	}
	twoClusters := strings.Replace(valid, "clusters:\n", "clusters:\n- name: second\n  cluster:\n    server: https://second.example.com\n", 1)
	tests := []struct {
		name, value, wantDetail string // wantDetail "" means valid
	}{
		{"valid YAML", valid, ""},
		{"two clusters", twoClusters, "kubeconfig must define exactly one cluster; found 2 (\"second\", \"prod-east\"). " +
			"Write one with only the context of this cluster: `kubectl config view --minify --flatten --context=NAME > cluster.kubeconfig`"},
		{"empty", "  ", "kubeconfig is empty"},
		{"a list", "- " + kubeconfigSecret, "kubeconfig is not a YAML or JSON mapping (expected keys such as clusters, contexts and users)"},
	}
	v := Kubeconfig()
	if got, want := v.Description(context.Background()), "a YAML or JSON kubeconfig with exactly one cluster and one context"; got != want {
		t.Errorf("Description = %q, want %q (the schema documents it)", got, want)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := path.Root("kubeconfig")
			resp := &validator.StringResponse{}
			v.ValidateString(context.Background(), validator.StringRequest{Path: p, ConfigValue: types.StringValue(tt.value)}, resp)
			if tt.wantDetail == "" {
				if resp.Diagnostics.HasError() {
					t.Fatalf("unexpected diagnostics %v", resp.Diagnostics)
				}
				return
			}
			if len(resp.Diagnostics) != 1 {
				t.Fatalf("diagnostics = %v, want exactly one", resp.Diagnostics)
			}
			d := resp.Diagnostics[0]
			if d.Summary() != "Invalid kubeconfig" || d.Detail() != tt.wantDetail {
				t.Errorf("diagnostic = %q: %q, want %q: %q", d.Summary(), d.Detail(), "Invalid kubeconfig", tt.wantDetail)
			}
			if withPath, ok := d.(interface{ Path() path.Path }); !ok || !withPath.Path().Equal(p) {
				t.Errorf("diagnostic not attached to %s", p)
			}
			if strings.Contains(d.Detail(), kubeconfigSecret) {
				t.Errorf("the diagnostic quotes the kubeconfig: %q", d.Detail())
			}
		})
	}
	for _, value := range []types.String{types.StringNull(), types.StringUnknown()} {
		resp := &validator.StringResponse{}
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("kubeconfig"), ConfigValue: value}, resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("%v: a null or unknown kubeconfig is checked once known, got %v", value, resp.Diagnostics)
		}
	}
}
