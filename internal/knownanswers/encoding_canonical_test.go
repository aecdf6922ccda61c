package knownanswers

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestCanonicalEncoding: the canonical form, byte for byte (the digests of states written
// by a build and read by it must agree): strings and names quoted as strconv.Quote does,
// numbers in 'g' form, set elements and members sorted, nulls and unknowns marked.
func TestCanonicalEncoding(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"s": tftypes.String, "b": tftypes.Bool, "n": tftypes.Number, "big": tftypes.Number,
		"l":   tftypes.List{ElementType: tftypes.String},
		"set": tftypes.Set{ElementType: tftypes.String},
		"m":   tftypes.Map{ElementType: tftypes.Number},
		"nul": tftypes.String, "unk": tftypes.Bool,
	}}
	huge, _, _ := big.ParseFloat("123456789012345678901234567890.5", 10, 512, big.ToNearestEven)
	v := tftypes.NewValue(typ, map[string]tftypes.Value{
		"s":   tftypes.NewValue(tftypes.String, "a \"quoted\"\nline é \x01"),
		"b":   tftypes.NewValue(tftypes.Bool, true),
		"n":   tftypes.NewValue(tftypes.Number, big.NewFloat(-1.25)),
		"big": tftypes.NewValue(tftypes.Number, huge),
		"l":   tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "z"), tftypes.NewValue(tftypes.String, "a")}),
		"set": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "z"), tftypes.NewValue(tftypes.String, "a")}),
		"m": tftypes.NewValue(tftypes.Map{ElementType: tftypes.Number}, map[string]tftypes.Value{
			"y": tftypes.NewValue(tftypes.Number, big.NewFloat(2)), "x": tftypes.NewValue(tftypes.Number, big.NewFloat(1e21))}),
		"nul": tftypes.NewValue(tftypes.String, nil),
		"unk": tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue),
	})
	var b bytes.Buffer
	canonical(&b, v)
	want := `("b"=btrue;"big"=d1.234567890123456789012345678905e+29;"l"=[s"z";s"a";];"m"=("x"=d1e+21;"y"=d2;);"n"=d-1.25;"nul"=n;"s"=s"a \"quoted\"\nline é \x01";"set"={s"a";s"z";};"unk"=u;);`
	if b.String() != want {
		t.Errorf("canonical =\n%s\nwant\n%s", b.String(), want)
	}
}
