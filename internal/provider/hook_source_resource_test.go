package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const (
	hookSourceAddr = "astra_hook_source.test"

	routeHookSources       = "/core/v1/hookSources"
	routeHookSource        = "/core/v1/hookSources/{hookSource_id}"
	routeAppExecutionHooks = "/k8s/v1/apps/{app_id}/executionHooks"
	routeExecutionHooks    = "/core/v1/executionHooks"
	routeExecutionHook     = "/core/v1/executionHooks/{executionHook_id}"
)

// The scripts of the hook source tests: two versions of a quiescing script.
const (
	quiesceV1 = "#!/bin/sh\n# hold writes while the snapshot is taken\npsql -c 'CHECKPOINT'\n"
	quiesceV2 = "#!/bin/sh\n# hold writes while the snapshot is taken\npsql -c 'CHECKPOINT'\nsync\n"
)

// hookSourceHCL is a hook source; script is an HCL expression (a quoted string, a call).
func hookSourceHCL(name, scriptArg, script string, extra ...string) string {
	body := ""
	for _, e := range extra {
		body += e + "\n"
	}
	return fmt.Sprintf(`
resource "astra_hook_source" "test" {
  name = %q
  %s = %s
%s}
`, name, scriptArg, script, body)
}

// checkHookSourcesDestroyed is a CheckDestroy: every astra_hook_source of the test is gone.
func (a *accTarget) checkHookSourcesDestroyed(s *terraform.State) error {
	return allGone(s, "astra_hook_source", "hook source", func(id string) error {
		_, err := a.client.GetHookSource(testContext(), id)
		return err
	})
}

// TestAccHookSource_lifecycleAndImport: a script as plain text, its hash and the service's MD5 in
// state; a changed script plans as a hash change only (the script itself is sensitive)
// and is one PUT; a description change keeps the hash known; a script changed outside
// Terraform shows as drift and is put back; import by ID plans nothing; source_base64
// holds the same script; destroy deletes it.
func TestAccHookSource_lifecycleAndImport(t *testing.T) {
	a := newAccTarget(t)
	name := a.name("pg-quiesce")
	v1 := a.config(hookSourceHCL(name, "source", fmt.Sprintf("%q", quiesceV1), `  description = "Checkpoints PostgreSQL"`))
	v2 := a.config(hookSourceHCL(name, "source", fmt.Sprintf("%q", quiesceV2), `  description = "Checkpoints PostgreSQL"`))
	v2described := a.config(hookSourceHCL(name, "source", fmt.Sprintf("%q", quiesceV2), `  description = "Checkpoints PostgreSQL, then syncs"`))
	v2base64 := a.config(hookSourceHCL(name, "source_base64", fmt.Sprintf("base64encode(%q)", quiesceV2), `  description = "Checkpoints PostgreSQL, then syncs"`))
	sameID := statecheck.CompareValue(compare.ValuesSame())
	var counts countDelta
	var id string
	a.test(resource.TestCase{
		CheckDestroy: a.checkHookSourcesDestroyed,
		Steps: []resource.TestStep{
			{
				Config: v1,
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(hookSourceAddr, tfjsonpath.New("id")),
					expectString(hookSourceAddr, "source", quiesceV1),
					expectNull(hookSourceAddr, "source_base64"),
					expectString(hookSourceAddr, "source_sha256", scriptSHA256(quiesceV1)),
					expectString(hookSourceAddr, "source_md5", astra.HookSourceChecksum(astra.EncodeScript(quiesceV1))),
				},
				Check: resource.ComposeAggregateTestCheckFunc(recordID(hookSourceAddr, &id),
					a.simCheck("one POST", func(sim *astrasim.Sim) error {
						return expectCounts(sim.Count("POST", routeHookSources), 1, sim.Count("PUT", routeHookSource), 0)
					})),
			},
			{Config: v1, ConfigPlanChecks: emptyPlan()},
			{
				// The new script shows as its hash: source is sensitive, source_sha256 known at
				// plan time, and only what the service recomputes is unknown.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    v2,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(hookSourceAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectSensitiveValue(hookSourceAddr, tfjsonpath.New("source")),
					plancheck.ExpectKnownValue(hookSourceAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(scriptSHA256(quiesceV2))),
					expectUnknownExactly(hookSourceAddr, withPaths(putMetadata, "source_md5")...)),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(hookSourceAddr, tfjsonpath.New("id")),
					expectString(hookSourceAddr, "source_md5", astra.HookSourceChecksum(astra.EncodeScript(quiesceV2))),
				},
				Check: a.simCheck("one conditional PUT, no POST", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeHookSource), 1, counts.since(sim, "POST "+routeHookSources), 0)
				}),
			},
			{
				// A description change leaves the script's hashes as they are.
				PreConfig: func() { a.markCounts(&counts) },
				Config:    v2described,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(hookSourceAddr, plancheck.ResourceActionUpdate),
					expectUnknownExactly(hookSourceAddr, putMetadata...),
					plancheck.ExpectKnownValue(hookSourceAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(scriptSHA256(quiesceV2)))),
				Check: a.simCheck("one PUT", func(sim *astrasim.Sim) error {
					return expectCounts(counts.since(sim, "PUT "+routeHookSource), 1)
				}),
			},
			{
				// Someone edits the script in the web UI: the refresh shows another hash, the
				// plan puts the configured script back.
				PreConfig: func() {
					h, err := a.client.GetHookSource(testContext(), id)
					if err != nil {
						t.Fatal(err)
					}
					h.Source = astra.EncodeScript("#!/bin/sh\nexit 0\n")
					if _, err := a.client.UpdateHookSource(testContext(), h); err != nil {
						t.Fatal(err)
					}
				},
				Config: v2described,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(hookSourceAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(hookSourceAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(scriptSHA256(quiesceV2)))),
				ConfigStateChecks: []statecheck.StateCheck{expectString(hookSourceAddr, "source_sha256", scriptSHA256(quiesceV2))},
				Check: func(*terraform.State) error {
					h, err := a.client.GetHookSource(testContext(), id)
					if err != nil {
						return err
					}
					if script, _ := h.Script(); script != quiesceV2 {
						return fmt.Errorf("the service holds %q, want the configured script", script)
					}
					return nil
				},
			},
			{
				Config: requiredProvidersHCL() + v2described, ResourceName: hookSourceAddr, ImportState: true,
				ImportStateKind: resource.ImportBlockWithID, ImportStateIdFunc: func(*terraform.State) (string, error) { return id, nil },
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: requiredProvidersHCL() + v2described, ResourceName: hookSourceAddr, ImportState: true, ImportStateVerify: true},
			{
				// The same script as base64: the service's script does not change, the state
				// holds it under source_base64 from now on.
				Config: v2base64,
				ConfigPlanChecks: prePlan(plancheck.ExpectResourceAction(hookSourceAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(hookSourceAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(scriptSHA256(quiesceV2)))),
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(hookSourceAddr, tfjsonpath.New("id")),
					expectNull(hookSourceAddr, "source"),
					expectString(hookSourceAddr, "source_base64", astra.EncodeScript(quiesceV2)),
				},
			},
			{Config: v2base64, ConfigPlanChecks: emptyPlan()},
			{
				// Another hook source of the same name: the error names the one that exists and
				// its import.
				Config: v2base64 + `
resource "astra_hook_source" "twin" {
  name   = "` + name + `"
  source = "#!/bin/sh\n"
}
`,
				ExpectError: errorPhrases("Hook source already exists", "Astra Control already holds the hook source \""+name+"\", ID",
					"terraform import astra_hook_source.<name>"),
			},
		},
	})
}

// TestAccHookSource_planTimeErrors: what Astra Control refuses in a script is refused at
// plan time with the fix named, before any request.
func TestAccHookSource_planTimeErrors(t *testing.T) {
	a := newAccTarget(t)
	src := func(arg, expr string) string { return a.config(hookSourceHCL("bad", arg, expr)) }
	steps := []resource.TestStep{
		{Config: src("source", `"#!/bin/sh\r\necho ok\r\n"`), ExpectError: errorPhrases("Carriage return in the hook source",
			"Line 1 of the script ends with a carriage return (Windows CRLF line endings); Astra Control refuses scripts with carriage returns.",
			"add `*.sh text eol=lf` to .gitattributes and run `git add --renormalize .`")},
		{Config: src("source_base64", `"IyEvYmluL3NoCgBleGl0Cg=="`), ExpectError: errorPhrases("Binary content in the hook source",
			"The script has a NUL byte at offset 10; Astra Control takes only text scripts")},
		{Config: src("source", `format("%98305s", "")`), ExpectError: errorPhrases("Hook source too large",
			"The script is 98305 bytes, 131076 once base64-encoded; Astra Control takes at most 128 KiB of base64 (131072 characters), which is 98304 bytes of script.")},
		{Config: src("source_base64", `"IyEvYmluL3NoCg"`), ExpectError: errorPhrases("Invalid source_base64",
			`source_base64 must be the script in standard, padded base64 on one line, as filebase64("script.sh") gives it, and it is not standard base64.`)},
		{Config: src("source", `""`), ExpectError: errorPhrases("Empty hook source", "The script is empty")},
		{Config: a.config(`
resource "astra_hook_source" "test" {
  name          = "both"
  source        = "#!/bin/sh\n"
  source_base64 = "IyEvYmluL3NoCg=="
}
`), ExpectError: errorPhrases("Invalid Attribute Combination", "source_base64")},
		// Neither: only an imported hook source may leave its script out.
		{Config: a.config(`
resource "astra_hook_source" "test" {
  name = "neither"
}
`), ExpectError: errorPhrases("Missing script", "A new astra_hook_source needs its script",
			"Only a hook source imported from Astra Control may leave both out")},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	a.test(resource.TestCase{
		Steps: steps,
		CheckDestroy: func(*terraform.State) error {
			if a.simulated() && a.sim.Count("POST", routeHookSources) != 0 {
				return fmt.Errorf("a refused script was sent")
			}
			return nil
		},
	})
}
