package main

import (
	"strings"
	"testing"
	"time"
)

// TestFleetReportWithTheEchoFloorOnly: the fleet tables lead with astra / echo, and a
// floor -fleet-floors left out shows as "-", not as zeros.
func TestFleetReportWithTheEchoFloorOnly(t *testing.T) {
	b := &bench{cli: "tofu", versions: map[string]string{"tofu": "OpenTofu v1.12.6"}, repeat: 1, out: "BENCHMARKS-fleet.md",
		variants: map[string]*variant{"ours": {}, "echo": {}}}
	b.rows = []row{{scenario: "fleet-plan", layout: "module", n: 100, res: map[string]result{
		"ours": {wall: 3 * time.Second, rssKiB: 40 << 10, cpu: 3 * time.Second, providerCPU: time.Second, requests: 12},
		"echo": {wall: 2 * time.Second, rssKiB: 20 << 10, cpu: 2 * time.Second, providerCPU: time.Second / 2},
	}}}
	report := b.report()
	want := "| 100 | OpenTofu v1.12.6 | 2.00s | - | - | 3.00s | **1.50x** | - | - | 12 | 20 / - / - / 40 MiB | 2.00x, - | " +
		"2.00s (0.50s) / - / - / 3.00s (1.00s) | 1.50x (2.00x) |"
	if !strings.Contains(report, want) {
		t.Errorf("the fleet table has no line\n%s\nin\n%s", want, report)
	}
}

// TestFleetGoalsRSSToThreeDecimals: the memory goal's line says which side of the bound a
// ratio that rounds to 1.50 is on, with the KiB it comes from.
func TestFleetGoalsRSSToThreeDecimals(t *testing.T) {
	b := &bench{cli: "tofu", versions: map[string]string{"tofu": "OpenTofu v1.12.6"}, repeat: 1, out: "BENCHMARKS-fleet.md",
		variants: map[string]*variant{"ours": {}, "echo": {}}}
	b.rows = []row{{scenario: "fleet-plan", layout: "module", n: 1000, res: map[string]result{
		"ours": {wall: 3 * time.Second, rssKiB: 32820, requests: 8},
		"echo": {wall: 3 * time.Second, rssKiB: 21860},
	}}}
	report := b.report()
	want := "provider peak RSS in the steady plan ≤ 1.5x the echo floor's | 1.501x (32820 / 21860 KiB) |"
	if !strings.Contains(report, want) {
		t.Errorf("the goals have no line ending\n%s\nin\n%s", want, report)
	}
}

// TestReportGivesBinarySizes: the sizes of the binaries the memory ratio follows, as a
// multiple of astra's.
func TestReportGivesBinarySizes(t *testing.T) {
	b := &bench{cli: "tofu", versions: map[string]string{"tofu": "OpenTofu v1.12.6"}, repeat: 1, out: "BENCHMARKS-fleet.md",
		variants: map[string]*variant{"ours": {label: "astra", size: 22_253_730}, "echo": {label: "echo floor", size: 14_631_074}}}
	want := " Binary sizes: astra 22.25 MB, echo floor 14.63 MB (astra's is 1.52x)."
	if report := b.report(); !strings.Contains(report, want) {
		t.Errorf("the report has no sentence\n%s\nin\n%s", want, report)
	}
}

// TestTakingTurns: the steady plans' rounds alternate which provider goes first, and every
// provider runs once a round.
func TestTakingTurns(t *testing.T) {
	settled := []string{"ours", "echo"}
	for k, want := range []string{"ours echo", "echo ours", "ours echo", "echo ours"} {
		if got := strings.Join(takingTurns(settled, k), " "); got != want {
			t.Errorf("round %d: %q, want %q", k, got, want)
		}
	}
	if strings.Join(settled, " ") != "ours echo" {
		t.Errorf("takingTurns reordered its argument: %v", settled)
	}
}
