package provider

import "testing"

func TestTuneGCLeavesAGOGCOfTheUsers(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want int // 0: not set
	}{
		{env: map[string]string{}, want: gcPercent},
		{env: map[string]string{"GOGC": "200"}},
		{env: map[string]string{"GOGC": "off"}},
		{env: map[string]string{"GOGC": ""}},
	} {
		got := 0
		tuneGC(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }, func(p int) int { got = p; return 100 })
		if got != tt.want {
			t.Errorf("GOGC %v: set %d, want %d", tt.env, got, tt.want)
		}
	}
}
