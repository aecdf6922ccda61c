package validate

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestStringValidatorsReportOnTheAttribute(t *testing.T) {
	cases := []struct {
		v       validator.String
		value   types.String
		wantErr string
	}{
		{UUID(), types.StringValue("nope"), "Invalid UUID"},
		{UUID(), types.StringNull(), ""},
		{UUID(), types.StringUnknown(), ""},
		{HTTPURL(), types.StringValue("astra"), "Invalid http(s) URL"},
		{PEMBundle(), types.StringValue("x"), "Invalid PEM certificate bundle"},
		{PositiveDuration(), types.StringValue("10"), "Invalid duration"},
		{ResourceName(63), types.StringValue("a;b"), "Invalid name"},
		{ResourceName(63), types.StringValue("ok"), ""},
	}
	for _, c := range cases {
		p := path.Root("attr")
		resp := &validator.StringResponse{}
		c.v.ValidateString(context.Background(), validator.StringRequest{Path: p, ConfigValue: c.value}, resp)
		if c.wantErr == "" {
			if resp.Diagnostics.HasError() {
				t.Errorf("%s(%s): unexpected %v", c.v.Description(context.Background()), c.value, resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Summary(), c.wantErr) {
			t.Errorf("%s(%s): diagnostics %v, want %q", c.v.Description(context.Background()), c.value, resp.Diagnostics, c.wantErr)
			continue
		}
		if d, ok := resp.Diagnostics[0].(interface{ Path() path.Path }); !ok || !d.Path().Equal(p) {
			t.Errorf("diagnostic not attached to %s", p)
		}
	}
}
