package provider

// The acceptance-test harness every resource and data source test in this package uses.
//
// Conventions (scripts/test.sh relies on them):
//   - A test that runs a Terraform CLI is named TestAcc followed by an upper-case letter or "_"
//     (TestAccCluster_basic) and sets PreCheck: func() { testAccPreCheck(t) }. `make test` runs
//     every such test under OpenTofu 1.12.6 and Terraform 1.16.4 (the newest), and every other
//     test once.
//   - The oldest supported CLI, Terraform 1.5.7, runs the acceptance tests that exercise what
//     differs between CLI versions, picked by name ($oldest_cli_tests in scripts/test.sh): a
//     name containing quietPlans or planTime (plan rendering: *_quietPlans, *_planTimeRules;
//     not *_fleetPlan, whose request sharing is the provider's alone), Import/import or
//     Adopt/adopt (import blocks, generated configuration), State or RoundTrip (state from
//     older releases), Fault, LostAnswer, Failed/failed or Harness (how the CLI reports errors,
//     partial applies and interrupts), Valid/valid (diagnostics: *_validation, *_invalid),
//     Example (the examples users copy), Clone/clone (astra_app's source, on every CLI), and
//     Identity, WriteOnly/writeOnly, Query/query or Action (features 1.5.7 lacks: they prove
//     they skip there, with the reason), and KnownAnswers (the
//     provider's own answers, which must not depend on the identity 1.5.7 does not send). Name a new test like
//     its peers and the rule picks it; nothing else needs an edit.
//   - A test of a feature a CLI lacks skips below the CLI version that has it, with
//     tfversion.SkipBelow (plugin-testing) or skipBelowCLI (tests that drive the CLI
//     directly), so the log says why.
//   - Providers are served in-process through testAccProtoV6ProviderFactories; nothing is
//     downloaded: the CLI comes from TF_ACC_TERRAFORM_PATH (absolute), built by
//     scripts/install-tf-cli.sh.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
)

// testAccProtoV6ProviderFactories serves p under the local name "astra" for resource.TestCase.
func testAccProtoV6ProviderFactories(p provider.Provider) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		typeName: knownanswers.NewServer(p),
	}
}

// providerWithResources serves a provider plus resources that exist only in tests, so
// nothing fake ships in the binary. Only provider.Provider's methods are forwarded:
// wrap a provider that implements optional interfaces (functions, ephemeral resources)
// with a wrapper that forwards them too.
type providerWithResources struct {
	provider.Provider
	extra []func() resource.Resource
}

func (p providerWithResources) Resources(ctx context.Context) []func() resource.Resource {
	return slices.Concat(p.Provider.Resources(ctx), p.extra)
}

var (
	cliOnce        sync.Once
	cliDescription string
	cliErr         error
)

// cliVersionLine matches the first line of `tofu version` / `terraform version`.
var cliVersionLine = regexp.MustCompile(`^(OpenTofu|Terraform) v\S+`)

// testAccPreCheck refuses to run with a CLI that plugin-testing would have to download,
// and logs which CLI and version the acceptance tests use.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if !filepath.IsAbs(path) {
		t.Fatalf("TF_ACC_TERRAFORM_PATH=%q: set it to the absolute path of a tofu or terraform binary "+
			"(`make test` builds both with scripts/install-tf-cli.sh); otherwise plugin-testing tries to download one", path)
	}
	cliOnce.Do(func() {
		// OpenTofu ≥ 1.12 prints a warning about a missing CLI config file on stdout, which
		// breaks terraform-exec's parsing of its output.
		if f := os.Getenv("TF_CLI_CONFIG_FILE"); f != "" {
			if _, err := os.Stat(f); err != nil {
				os.Unsetenv("TF_CLI_CONFIG_FILE")
			}
		}
		cliDescription, cliErr = describeCLI(path)
	})
	if cliErr != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH=%s: %v", path, cliErr)
	}
	t.Logf("CLI: %s (%s)", cliDescription, path)
}

// describeCLI returns the CLI's own name and version, such as "OpenTofu v1.12.6".
// It tries three times: one CI run saw Terraform 1.5.7's `version` exit 1 once, for
// every test of that pass, and answer at once when asked again by hand.
func describeCLI(path string) (string, error) {
	var out []byte
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		if out, err = runVersion(path); err == nil || attempt == 3 {
			break
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	if err != nil {
		return "", err
	}
	line, _, _ := bytes.Cut(out, []byte("\n"))
	if m := cliVersionLine.Find(line); m != nil {
		return string(m), nil
	}
	return "", fmt.Errorf("`version` printed %q first, not the CLI's name and version", line)
}

// runVersion runs `CLI version`; its error carries what the CLI wrote to stderr.
func runVersion(path string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "version")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("running `version`: %w; stderr: %q; stdout: %q", err, stderr.Bytes(), out)
	}
	return out, nil
}
