package validate

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// MaxHookSourceBase64 is the hook source limit of every release's published schema: "The
// maximum size of a source value is 128 KiB when encoded using base64".
const MaxHookSourceBase64 = 128 << 10

// maxHookScript is the longest script that fits: 3 bytes per 4 base64 characters.
const maxHookScript = MaxHookSourceBase64 / 4 * 3

// HookScriptProblem is one reason a hook source's script is refused: a summary and a
// detail that names the fix.
type HookScriptProblem struct{ Summary, Detail string }

func (p *HookScriptProblem) Error() string { return p.Summary + ": " + p.Detail }

// CheckHookScript applies the published schema's rules to a script before it is sent:
// at most 128 KiB once base64-encoded, and "The plaintext source must not contain binary
// data or carriage-return characters". Binary is taken to be a NUL byte or bytes that are
// not UTF-8, the reading the simulator shares; nil when the script passes.
func CheckHookScript(script []byte) *HookScriptProblem {
	if n := base64.StdEncoding.EncodedLen(len(script)); n > MaxHookSourceBase64 {
		return &HookScriptProblem{"Hook source too large", fmt.Sprintf("The script is %d bytes, %d once base64-encoded; "+
			"Astra Control takes at most 128 KiB of base64 (%d characters), which is %d bytes of script. Shorten it, or "+
			"move what it needs into the container image and keep only the hook logic in the script.",
			len(script), n, MaxHookSourceBase64, maxHookScript)}
	}
	if i := bytes.IndexByte(script, 0); i >= 0 {
		return &HookScriptProblem{"Binary content in the hook source", fmt.Sprintf("The script has a NUL byte at offset %d; "+
			"Astra Control takes only text scripts (it runs them with the container's shell). Ship binaries in the "+
			"container image and call them from the script.", i)}
	}
	if !utf8.Valid(script) {
		at := 0
		for at < len(script) {
			r, size := utf8.DecodeRune(script[at:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			at += size
		}
		return &HookScriptProblem{"Binary content in the hook source", fmt.Sprintf("The script is not valid UTF-8 "+
			"(at byte offset %d); Astra Control takes only text scripts. Save it as UTF-8, or, if it is a binary, ship it "+
			"in the container image and call it from the script.", at)}
	}
	if i := bytes.IndexByte(script, '\r'); i >= 0 {
		line := bytes.Count(script[:i], []byte{'\n'}) + 1
		return &HookScriptProblem{"Carriage return in the hook source", fmt.Sprintf("Line %d of the script ends with a "+
			"carriage return (Windows CRLF line endings); Astra Control refuses scripts with carriage returns. The usual "+
			"cause is a Windows checkout (git's core.autocrlf): add `*.sh text eol=lf` to .gitattributes and run "+
			"`git add --renormalize .`, or strip them in the configuration: "+
			"`source = replace(file(\"script.sh\"), \"\\r\", \"\")`.", line)}
	}
	return nil
}

// DecodeHookSourceBase64 decodes source_base64, which must be what the provider would send
// itself (standard alphabet, padded, one line): the state holds the service's canonical
// text, so any other spelling of the same script would plan a change forever.
func DecodeHookSourceBase64(s string) ([]byte, error) {
	script, err := base64.StdEncoding.DecodeString(s)
	if err != nil || base64.StdEncoding.EncodeToString(script) != s {
		why := "it is not standard base64"
		if err == nil {
			why = "it is not in the canonical form (padded, no line breaks or spaces)"
		}
		return nil, fmt.Errorf("source_base64 must be the script in standard, padded base64 on one line, as "+
			"filebase64(\"script.sh\") gives it, and %s. Use filebase64(), or set source to the plain text instead "+
			"(`base64 -w0` on Linux writes one line)", why)
	}
	return script, nil
}

type hookScript struct{ encoded bool }

// HookScript checks `source`, a script in plain text.
func HookScript() validator.String { return hookScript{} }

// HookScriptBase64 checks `source_base64`: canonical base64 of a script HookScript accepts.
func HookScriptBase64() validator.String { return hookScript{encoded: true} }

func (v hookScript) Description(context.Context) string {
	return "a text script, at most 128 KiB base64-encoded, without carriage returns"
}

func (v hookScript) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v hookScript) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	script := []byte(req.ConfigValue.ValueString())
	if v.encoded {
		var err error
		if script, err = DecodeHookSourceBase64(req.ConfigValue.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid source_base64", err.Error())
			return
		}
	}
	if len(script) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Empty hook source", "The script is empty; Astra Control needs a script to run.")
		return
	}
	if p := CheckHookScript(script); p != nil {
		resp.Diagnostics.AddAttributeError(req.Path, p.Summary, p.Detail)
	}
}

// CheckRE2 says why pattern is not a regular expression Astra Control can match with (its
// syntax is RE2, Go's own), or nil.
func CheckRE2(pattern string) error {
	if pattern == "" {
		return fmt.Errorf("the regular expression is empty")
	}
	_, err := regexp.Compile(pattern)
	return err
}
