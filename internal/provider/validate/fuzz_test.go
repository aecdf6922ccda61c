package validate

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// runValidator applies v to s on attribute "x" and returns the error diagnostics' details.
func runValidator(v validator.String, s string) (errs int, detail string, onAttribute bool) {
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: types.StringValue(s)}, resp)
	onAttribute = true
	for _, d := range resp.Diagnostics.Errors() {
		detail += d.Detail()
		if withPath, ok := d.(interface{ Path() path.Path }); !ok || !withPath.Path().Equal(path.Root("x")) {
			onAttribute = false
		}
	}
	return resp.Diagnostics.ErrorsCount(), detail, onAttribute
}

// isUUID is the rule written out by hand: 36 characters, dashes at 8, 13, 18 and 23,
// hexadecimal digits elsewhere.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	// type_astra_identifier: version 4 with variant 8, 9, a or b; version 5; or all zeros.
	switch s[14] {
	case '4':
		return strings.IndexByte("89ab", s[19]) >= 0
	case '5':
		return true
	}
	return s == "00000000-0000-0000-0000-000000000000"
}

// FuzzUUID: CheckUUID accepts exactly the API's type_astra_identifier, and the validator
// turns every refusal into one error diagnostic on the attribute that quotes the value.
func FuzzUUID(f *testing.F) {
	for _, s := range []string{"6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f", "6D4E8A5C-1F2B-4C3D-9E8F-0A1B2C3D4E5F", "",
		"6d4e8a5c1f2b4c3d9e8f0a1b2c3d4e5f", "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f\n", "{6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f}",
		"6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5g", "ｆｆｆｆｆｆｆｆ-ｆｆｆｆ-ｆｆｆｆ-ｆｆｆｆ-ｆｆｆｆｆｆｆｆｆｆｆｆ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckUUID(s)
		if (err == nil) != isUUID(s) {
			t.Fatalf("CheckUUID(%q) = %v, but the rule says valid=%v", s, err, isUUID(s))
		}
		errs, detail, onAttr := runValidator(UUID(), s)
		switch {
		case err == nil && errs != 0:
			t.Fatalf("valid %q got %d diagnostics", s, errs)
		case err != nil && (errs != 1 || !onAttr || !strings.Contains(detail, fmt.Sprintf("%q", s))):
			t.Fatalf("invalid %q: %d diagnostics (on the attribute: %v): %q", s, errs, onAttr, detail)
		}
	})
}

// FuzzResourceName: CheckResourceName accepts only 1..max printable ASCII characters free
// of markup, path and SQL metacharacters, and every refusal is one diagnostic on the
// attribute that starts "the name".
func FuzzResourceName(f *testing.F) {
	for _, s := range []string{"prod-east", "10.0.0.1:6443", "", "a<b", "../etc", "x; drop", "naïve", "tab\there", strings.Repeat("n", 64), "--", "a/*b"} {
		f.Add(s, 63)
	}
	f.Fuzz(func(t *testing.T, s string, maxLen int) {
		if maxLen < 1 || maxLen > 1000 {
			maxLen = 63
		}
		err := CheckResourceName(s, maxLen)
		if err == nil {
			if s == "" || len(s) > maxLen {
				t.Fatalf("accepted %q of length %d (max %d)", s, len(s), maxLen)
			}
			for _, r := range s {
				if r < 0x20 || r > 0x7e {
					t.Fatalf("accepted %q with character %U", s, r)
				}
			}
			for _, bad := range []string{"<", ">", "&", "/", `\`, ";", "'", `"`, "--", "`"} {
				if strings.Contains(s, bad) {
					t.Fatalf("accepted %q holding %q", s, bad)
				}
			}
		} else if !strings.HasPrefix(err.Error(), "the name ") {
			t.Fatalf("refusal %q does not say it is about the name", err)
		}
		errs, detail, onAttr := runValidator(ResourceName(maxLen), s)
		if (err != nil) != (errs == 1) || errs > 1 || !onAttr || (err != nil && detail != err.Error()) {
			t.Fatalf("validator on %q: %d diagnostics (on the attribute: %v) %q; the check said %v", s, errs, onAttr, detail, err)
		}
	})
}
