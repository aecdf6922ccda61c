package validate

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// TestCheckUUIDErrors: every way an ID can miss type_astra_identifier gets its own exact
// message, naming the value and the fix.
func TestCheckUUIDErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f", ""}, // v4, variant 9
		{"6d4e8a5c-1f2b-4c3d-8e8f-0a1b2c3d4e5f", ""}, // v4, variant 8
		{"6d4e8a5c-1f2b-4c3d-ae8f-0a1b2c3d4e5f", ""}, // v4, variant a
		{"6d4e8a5c-1f2b-4c3d-be8f-0a1b2c3d4e5f", ""}, // v4, variant b
		{"547e24b9-ddf4-558f-0e8f-0a1b2c3d4e5f", ""}, // v5: any variant
		{"00000000-0000-0000-0000-000000000000", ""}, // the null UUID
		{"6D4E8A5C-1F2B-4C3D-9E8F-0A1B2C3D4E5F",
			`"6D4E8A5C-1F2B-4C3D-9E8F-0A1B2C3D4E5F" has uppercase letters, and Astra Control accepts IDs only in lowercase: use "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f"`},
		{"6d4e8a5c-1f2b-1c3d-9e8f-0a1b2c3d4e5f",
			`"6d4e8a5c-1f2b-1c3d-9e8f-0a1b2c3d4e5f" is a version 1 UUID, and Astra Control accepts only version 4 or 5 UUIDs (or the all-zero UUID): copy the ID from Astra Control or from the resource or data source that reads it`},
		{"6D4E8A5C-1F2B-3C3D-9E8F-0A1B2C3D4E5F",
			`"6D4E8A5C-1F2B-3C3D-9E8F-0A1B2C3D4E5F" is a version 3 UUID, and Astra Control accepts only version 4 or 5 UUIDs (or the all-zero UUID): copy the ID from Astra Control or from the resource or data source that reads it`},
		{"6d4e8a5c-1f2b-4c3d-ce8f-0a1b2c3d4e5f",
			`"6d4e8a5c-1f2b-4c3d-ce8f-0a1b2c3d4e5f" is not an ID Astra Control accepts: in a version 4 UUID the fourth group starts with 8, 9, a or b, not c`},
		{"6d4e8a5c-1f2b-4c3d-7e8f-0a1b2c3d4e5f",
			`"6d4e8a5c-1f2b-4c3d-7e8f-0a1b2c3d4e5f" is not an ID Astra Control accepts: in a version 4 UUID the fourth group starts with 8, 9, a or b, not 7`},
		{"00000000-0000-0000-0000-000000000001",
			`"00000000-0000-0000-0000-000000000001" is a version 0 UUID, and Astra Control accepts only version 4 or 5 UUIDs (or the all-zero UUID): copy the ID from Astra Control or from the resource or data source that reads it`},
		{"{6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f}",
			`"{6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f}" is not a UUID: expected the form 8-4-4-4-12 lowercase hexadecimal digits, such as 6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f`},
		{"6d4e8a5c1f2b4c3d9e8f0a1b2c3d4e5f",
			`"6d4e8a5c1f2b4c3d9e8f0a1b2c3d4e5f" is not a UUID: expected the form 8-4-4-4-12 lowercase hexadecimal digits, such as 6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f`},
		{"", `"" is not a UUID: expected the form 8-4-4-4-12 lowercase hexadecimal digits, such as 6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f`},
	}
	for _, c := range cases {
		err := CheckUUID(c.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckUUID(%q)\n got: %s\nwant: %s", c.in, got, c.want)
		}
	}
}

// TestCheckUUIDMatchesTheSpec: CheckUUID accepts exactly what every published release's
// type_astra_identifier accepts, over IDs of every version and variant digit, in both cases.
func TestCheckUUIDMatchesTheSpec(t *testing.T) {
	const hex = "0123456789abcdefABCDEF"
	var ids []string
	for _, v := range hex {
		for _, variant := range hex {
			ids = append(ids, "6d4e8a5c-1f2b-"+string(v)+"c3d-"+string(variant)+"e8f-0a1b2c3d4e5f")
		}
	}
	ids = append(ids, "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000A", "6d4e8a5c-1f2b-4c3d-9e8f-0a1b2c3d4e5f0")
	for _, release := range apispec.Releases {
		doc, err := apispec.Load(release)
		if err != nil {
			t.Fatal(err)
		}
		ref := doc.Components.Schemas["type_astra_identifier"]
		if ref == nil || len(ref.Value.AnyOf) != 3 {
			t.Fatalf("release %s: type_astra_identifier is not the three-pattern anyOf this check mirrors", release)
		}
		accepted, rejected := 0, 0
		for _, id := range ids {
			specOK := ref.Value.VisitJSON(id, openapi3.MultiErrors()) == nil
			ours := CheckUUID(id) == nil
			if specOK != ours {
				t.Errorf("release %s: %q: spec accepts=%v, CheckUUID accepts=%v", release, id, specOK, ours)
			}
			if specOK {
				accepted++
			} else {
				rejected++
			}
		}
		// 4 v4 variants + 16 lowercase v5 variant digits + the null UUID.
		if accepted != 4+16+1 || rejected != len(ids)-accepted {
			t.Errorf("release %s: spec accepted %d of %d IDs, want 21", release, accepted, len(ids))
		}
	}
}
