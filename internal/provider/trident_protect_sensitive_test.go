package provider

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccTridentProtectManifests_scriptsStaySensitive drives the CLI on an estate whose
// hooks run scripts: the rendering carries them (base64 in each ExecHook's
// spec.hookSource, as the state shows), yet neither the plan, the apply, `show` nor
// `output` prints a script, as it is or base64-encoded. The manifests' keys and kinds stay
// readable.
func TestAccTridentProtectManifests_scriptsStaySensitive(t *testing.T) {
	h := newCLIHarness(t, astrasim.Options{Release: "24.02"}, "")
	c, err := astra.New(astra.Config{Endpoint: h.url, AccountID: h.sim().AccountID(), Token: astrasim.DefaultToken, ClusterVersion: "1.7"})
	if err != nil {
		t.Fatal(err)
	}
	e := seedTPEstate(t, c, h.sim().Seeds().PrivateCloudID)
	h.write(fmt.Sprintf(`
data "astra_trident_protect_manifests" "cluster" {
  cluster_id      = %q
  gcp_project_ids = { %q = "acme-prod" }
}

output "yaml" {
  value     = data.astra_trident_protect_manifests.cluster.yaml
  sensitive = true
}

output "objects" {
  value     = data.astra_trident_protect_manifests.cluster.objects
  sensitive = true
}

output "files" {
  value     = { for m in data.astra_trident_protect_manifests.cluster.manifests : "${m.key}.yaml" => m.yaml }
  sensitive = true
}

output "keys" {
  value = [for m in data.astra_trident_protect_manifests.cluster.manifests : m.key]
}

output "hook_keys" {
  value = nonsensitive([for k in keys(data.astra_trident_protect_manifests.cluster.objects) : k if startswith(k, "ExecHook.")])
}
`, e.clusterID, e.buckets["gcs-backups"]))
	var forms []string
	for _, script := range tpScripts {
		forms = append(forms, base64.StdEncoding.EncodeToString([]byte(script)))
	}
	forms = append(forms, "FLUSH TABLES WITH READ LOCK", "UNLOCK TABLES")

	results := map[string]cliResult{"plan": h.plan(), "apply": h.apply()}
	ctx := testContext()
	for _, cmd := range [][]string{{"show", "-no-color"}, {"output", "-no-color"}} {
		results[strings.Join(cmd, " ")] = h.run(ctx, cmd...)
	}
	for what, r := range results {
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", what, r.err, r.out)
		}
		for _, s := range forms {
			if strings.Contains(r.out, s) {
				t.Errorf("%s prints a hook script (%q):\n%s", what, s, r.out)
			}
		}
	}
	expectOutput(t, "output", results["output -no-color"], "yaml = <sensitive>", "objects = <sensitive>",
		`"ExecHook.default.freeze-snapshot"`, `"Application.default.`+tpShopApplication+`"`)
	expectOutput(t, "show", results["show -no-color"], "(sensitive value)", `"ExecHook.default.freeze-snapshot"`)
	// The scripts are there to be hidden: the state holds them, so the check above can fail.
	state := h.run(ctx, "show", "-json")
	if state.err != nil || !strings.Contains(state.out, forms[0]) && !strings.Contains(state.out, forms[1]) {
		t.Errorf("show -json holds no hook script: the rendering carries none, and the test proves nothing (%v)", state.err)
	}
}
