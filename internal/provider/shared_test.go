package provider

import "testing"

func TestVersionAtLeast(t *testing.T) {
	cases := []struct {
		v, min string
		want   bool
	}{{"1.5", "1.4", true}, {"1.4", "1.4", true}, {"1.3", "1.4", false}, {"1.7", "1.5", true}, {"1.0", "1.5", false}}
	for _, c := range cases {
		if got := versionAtLeast(c.v, c.min); got != c.want {
			t.Errorf("versionAtLeast(%s, %s) = %v", c.v, c.min, got)
		}
	}
}
