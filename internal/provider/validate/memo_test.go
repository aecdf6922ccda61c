package validate

import (
	"errors"
	"fmt"
	"testing"
)

func TestMemoParsesEachTextOnce(t *testing.T) {
	parsed := map[string]int{}
	m := &memo{parse: func(s string) error {
		parsed[s]++
		if s == "bad" {
			return errors.New("it is not YAML")
		}
		return nil
	}}
	for range 3 {
		for _, s := range []string{"good", "bad", ""} {
			err := m.check(s)
			if got, want := fmt.Sprint(err), map[bool]string{true: "it is not YAML", false: "<nil>"}[s == "bad"]; got != want {
				t.Fatalf("check(%q) = %s, want %s", s, got, want)
			}
		}
	}
	for _, s := range []string{"good", "bad", ""} {
		if parsed[s] != 1 {
			t.Errorf("%q parsed %d times, want once", s, parsed[s])
		}
	}
	// Full, it starts again: the memo never grows past maxMemo answers.
	for i := range maxMemo {
		_ = m.check(fmt.Sprint(i))
	}
	if len(m.answers) > maxMemo {
		t.Fatalf("%d answers kept, want at most %d", len(m.answers), maxMemo)
	}
	_ = m.check("good")
	if parsed["good"] != 2 {
		t.Errorf("after the memo filled, %q parsed %d times, want twice", "good", parsed["good"])
	}
}
