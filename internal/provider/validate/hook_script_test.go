package validate

import (
	"strings"
	"testing"
)

func TestCheckHookScript(t *testing.T) {
	atLimit := strings.Repeat("a", maxHookScript)
	for _, tc := range []struct {
		name, script, summary, detail string
	}{
		{name: "a script", script: "#!/bin/sh\necho ok\n"},
		{name: "at the limit", script: atLimit},
		{name: "one byte over", script: atLimit + "a", summary: "Hook source too large",
			detail: "The script is 98305 bytes, 131076 once base64-encoded; Astra Control takes at most 128 KiB of base64 (131072 characters), which is 98304 bytes of script."},
		{name: "NUL", script: "ab\x00c", summary: "Binary content in the hook source", detail: "The script has a NUL byte at offset 2;"},
		{name: "not UTF-8", script: "#!/bin/sh\n\xff\xfe", summary: "Binary content in the hook source", detail: "not valid UTF-8 (at byte offset 10)"},
		{name: "CRLF", script: "#!/bin/sh\r\necho ok\r\n", summary: "Carriage return in the hook source",
			detail: "Line 1 of the script ends with a carriage return (Windows CRLF line endings); Astra Control refuses scripts with carriage returns. The usual cause is a Windows checkout (git's core.autocrlf): add `*.sh text eol=lf` to .gitattributes"},
		{name: "CR on line 3", script: "a\nb\nc\r\n", summary: "Carriage return in the hook source", detail: "Line 3 of the script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := CheckHookScript([]byte(tc.script))
			if tc.summary == "" {
				if p != nil {
					t.Fatalf("refused: %v", p)
				}
				return
			}
			if p == nil {
				t.Fatalf("accepted, want %q", tc.summary)
			}
			if p.Summary != tc.summary || !strings.Contains(p.Detail, tc.detail) {
				t.Errorf("got %q: %q\nwant %q containing %q", p.Summary, p.Detail, tc.summary, tc.detail)
			}
		})
	}
}

func TestDecodeHookSourceBase64(t *testing.T) {
	if got, err := DecodeHookSourceBase64("IyEvYmluL3NoCg=="); err != nil || string(got) != "#!/bin/sh\n" {
		t.Errorf("canonical: %q, %v", got, err)
	}
	for in, why := range map[string]string{
		"IyEvYmluL3NoCg":     "not standard base64",       // unpadded
		"IyEvYm\nluL3NoCg==": "not in the canonical form", // wrapped, as `base64` writes by default
		"IyEvYmluL3NoCh==":   "not in the canonical form",
		"not base64!":        "not standard base64",
	} {
		_, err := DecodeHookSourceBase64(in)
		if err == nil || !strings.Contains(err.Error(), why) || !strings.Contains(err.Error(), "filebase64(") {
			t.Errorf("%q: %v, want an error saying %q and naming filebase64", in, err, why)
		}
	}
}

func TestCheckRE2(t *testing.T) {
	for _, ok := range []string{"^postgres", "app=(db|cache)", `registry\.example\.com/pg:1[45]`} {
		if err := CheckRE2(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{"(": "missing closing )", "a{2,1}": "invalid repeat count", "(?!x)": "invalid or unsupported Perl syntax", "": "empty"} {
		if err := CheckRE2(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}
