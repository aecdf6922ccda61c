package tridentprotect

import (
	"regexp"
	"strconv"
	"strings"
)

// scheduleField is one of a policy's time fields, its range, and the granularities that
// use it (Trident protect requires it there and the docs say nothing of it elsewhere).
type scheduleField struct {
	name     string // Trident protect's, as in spec
	label    string // for warnings
	get      func(Policy) string
	min, max int
	usedBy   map[string]bool
}

var scheduleFields = []scheduleField{
	{name: "minute", label: "minute", get: func(p Policy) string { return p.Minute }, min: 0, max: 59,
		usedBy: map[string]bool{"hourly": true, "daily": true, "weekly": true, "monthly": true}},
	{name: "hour", label: "hour", get: func(p Policy) string { return p.Hour }, min: 0, max: 23,
		usedBy: map[string]bool{"daily": true, "weekly": true, "monthly": true}},
	{name: "dayOfWeek", label: "day of week", get: func(p Policy) string { return p.DayOfWeek }, min: 0, max: 7,
		usedBy: map[string]bool{"weekly": true}},
	{name: "dayOfMonth", label: "day of month", get: func(p Policy) string { return p.DayOfMonth }, min: 1, max: 31,
		usedBy: map[string]bool{"monthly": true}},
}

var granularities = map[string]string{"hourly": "Hourly", "daily": "Daily", "weekly": "Weekly", "monthly": "Monthly"}

var digits = regexp.MustCompile(`^[0-9]+$`)

// renderSchedule returns a Schedule's spec for a policy, or ok false (with the reason in
// warns). vaultName is the AppVault its snapshots and backups go to.
func renderSchedule(p Policy, appName, vaultName string, warns *warnings) (map[string]any, bool) {
	src := policySource(p)
	gran := strings.ToLower(strings.TrimSpace(p.Granularity))
	tpGran, known := granularities[gran]
	if !known {
		warns.add(src, "granularity %s has no Trident protect equivalent this rendering makes (hourly, daily, weekly, monthly); no Schedule is rendered", quote(p.Granularity))
		return nil, false
	}
	spec := map[string]any{
		"applicationRef": appName,
		"appVaultRef":    vaultName,
		"granularity":    tpGran,
		"enabled":        !p.Disabled,
		// Retain is the documented default; said outright, a Backup CR deleted by
		// mistake never takes its backup with it.
		"backupReclaimPolicy": "Retain",
	}
	var problems []string
	for _, f := range scheduleFields {
		raw := strings.TrimSpace(f.get(p))
		set := raw != "" && raw != "*"
		if !f.usedBy[gran] {
			if set {
				warns.add(src, "%s %s is not used by %s schedule; left out", f.label, raw, article(gran))
			}
			continue
		}
		if !set {
			problems = append(problems, "has no "+f.label+", which "+article(gran)+" schedule needs")
			continue
		}
		n, err := strconv.Atoi(raw)
		if !digits.MatchString(raw) || err != nil || n < f.min || n > f.max {
			problems = append(problems, f.label+" "+quote(raw)+" is not a number from "+strconv.Itoa(f.min)+" to "+strconv.Itoa(f.max))
			continue
		}
		spec[f.name] = strconv.Itoa(n)
	}
	snap, okSnap := retention(p.SnapshotRetention)
	backup, okBackup := retention(p.BackupRetention)
	if !okSnap {
		problems = append(problems, "snapshot retention "+quote(p.SnapshotRetention)+" is not a non-negative integer")
	}
	if !okBackup {
		problems = append(problems, "backup retention "+quote(p.BackupRetention)+" is not a non-negative integer")
	}
	if len(problems) > 0 {
		warns.add(src, "%s; no Schedule is rendered", strings.Join(problems, "; "))
		return nil, false
	}
	spec["snapshotRetention"], spec["backupRetention"] = snap, backup
	if spec["dayOfWeek"] == "7" {
		spec["dayOfWeek"] = "0"
		warns.add(src, "day of week 7 is rendered as \"0\": Trident protect reads both as Sunday, and Astra Control's API documents 0-7 without naming the days; check that Sunday was meant")
	}
	if d, ok := spec["dayOfMonth"].(string); ok && atoi(d) > 28 {
		warns.add(src, "day of month %s: neither Astra Control's nor Trident protect's documentation says what a monthly schedule does in a month that has no day %s", d, d)
	}
	if snap == "0" && backup == "0" {
		warns.add(src, "snapshot and backup retention are both 0: Trident protect takes neither snapshots nor backups for this Schedule")
	}
	if p.Disabled {
		warns.add(src, "is disabled in Astra Control: rendered with spec.enabled false, so it takes no snapshots or backups until enabled")
	}
	return spec, true
}

// retention is a retention count in canonical form ("007" is "7").
func retention(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if !digits.MatchString(raw) {
		return "", false
	}
	if t := strings.TrimLeft(raw, "0"); t != "" {
		return t, true
	}
	return "0", true
}

// article is "an hourly", "a daily", ...
func article(gran string) string {
	if gran == "hourly" {
		return "an " + gran
	}
	return "a " + gran
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func policySource(p Policy) Source {
	return Source{Kind: sourcePolicy, ID: p.ID, Name: p.Name}
}
