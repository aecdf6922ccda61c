package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/tridentprotect"
)

// The pages about the rendering say which Trident protect release its mapping follows, the
// one the renderer follows: a new release of the mapping must update them.
func TestTridentProtectDocsNameTheRelease(t *testing.T) {
	for _, page := range []struct{ path, want string }{
		{"docs/data-sources/trident_protect_manifests.md", "Trident protect documentation of release " + tridentprotect.DocsRelease},
		{"docs/data-sources/trident_protect_manifests.md", tridentprotect.DocsCommit},
		{"docs/guides/moving-to-trident-protect.md", "Trident protect documentation of release **" + tridentprotect.DocsRelease + "**"},
		{"examples/move-to-trident-protect/README.md", "Moving to Trident protect"},
	} {
		raw, err := os.ReadFile(filepath.Join("..", "..", page.path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), page.want) {
			t.Errorf("%s does not say %q", page.path, page.want)
		}
	}
}
