package tridentprotect

import (
	"reflect"
	"testing"
)

// scheduleEstate is one app in namespace "db" with the given policies; bucket "vault"
// (ID b-1) is its default bucket, "other" (b-2) another one.
func scheduleEstate(pols ...Policy) Estate {
	s3 := func(id, name string) Bucket {
		return Bucket{ID: id, Name: name, Provider: "ontap-s3", S3: &S3Location{ServerURL: "s3.example.com", BucketName: name}}
	}
	return Estate{
		Buckets: []Bucket{s3("b-1", "vault"), s3("b-2", "other")},
		Apps: []App{{ID: "a-1", Name: "pg", NamespaceScopedResources: []NamespaceScope{{Namespace: "db"}},
			DefaultBucketID: "b-1", Policies: pols}},
	}
}

func TestSchedule(t *testing.T) {
	base := func(extra map[string]any) map[string]any {
		spec := map[string]any{"appVaultRef": "vault", "enabled": true, "backupReclaimPolicy": "Retain"}
		for k, v := range extra {
			spec[k] = v
		}
		return spec
	}
	pol := func(id, gran, minute, hour, dow, dom, snap, backup string) Policy {
		return Policy{ID: id, Name: id, Granularity: gran, Minute: minute, Hour: hour, DayOfWeek: dow, DayOfMonth: dom,
			SnapshotRetention: snap, BackupRetention: backup, BucketID: "b-1"}
	}
	cases := []struct {
		name     string
		policy   Policy
		wantName string
		wantSpec map[string]any
		warnings []string
	}{
		{"hourly at minute 0", pol("hourly", "hourly", "0", "", "", "", "24", "0"), "pg-hourly",
			base(map[string]any{"granularity": "Hourly", "minute": "0", "snapshotRetention": "24", "backupRetention": "0"}), nil},
		{"hourly at minute 59, with actoolkit's '*'", pol("hourly-59", "hourly", "59", "*", "*", "*", "1", "1"), "pg-hourly-59",
			base(map[string]any{"granularity": "Hourly", "minute": "59", "snapshotRetention": "1", "backupRetention": "1"}), nil},
		{"daily at 23:59", pol("daily", "daily", "59", "23", "", "", "7", "14"), "pg-daily",
			base(map[string]any{"granularity": "Daily", "minute": "59", "hour": "23", "snapshotRetention": "7", "backupRetention": "14"}), nil},
		{"daily, granularity in capitals, leading zeros", pol("daily-z", "Daily", "05", "07", "", "", "007", "00"), "pg-daily-z",
			base(map[string]any{"granularity": "Daily", "minute": "5", "hour": "7", "snapshotRetention": "7", "backupRetention": "0"}), nil},
		{"weekly on Sunday as 0", pol("weekly-0", "weekly", "30", "3", "0", "", "4", "8"), "pg-weekly-0",
			base(map[string]any{"granularity": "Weekly", "minute": "30", "hour": "3", "dayOfWeek": "0", "snapshotRetention": "4", "backupRetention": "8"}), nil},
		{"weekly on Sunday as 7", pol("weekly-7", "weekly", "30", "3", "7", "", "4", "8"), "pg-weekly-7",
			base(map[string]any{"granularity": "Weekly", "minute": "30", "hour": "3", "dayOfWeek": "0", "snapshotRetention": "4", "backupRetention": "8"}),
			[]string{`protection policy "weekly-7" (weekly-7): day of week 7 is rendered as "0": Trident protect reads both as Sunday, and Astra Control's API documents 0-7 without naming the days; check that Sunday was meant`}},
		{"weekly on Saturday", pol("weekly-6", "weekly", "0", "0", "6", "", "1", "1"), "pg-weekly-6",
			base(map[string]any{"granularity": "Weekly", "minute": "0", "hour": "0", "dayOfWeek": "6", "snapshotRetention": "1", "backupRetention": "1"}), nil},
		{"monthly on the 1st", pol("monthly-1", "monthly", "45", "4", "", "1", "0", "12"), "pg-monthly-1",
			base(map[string]any{"granularity": "Monthly", "minute": "45", "hour": "4", "dayOfMonth": "1", "snapshotRetention": "0", "backupRetention": "12"}), nil},
		{"monthly on the 28th", pol("monthly-28", "monthly", "0", "0", "", "28", "1", "1"), "pg-monthly-28",
			base(map[string]any{"granularity": "Monthly", "minute": "0", "hour": "0", "dayOfMonth": "28", "snapshotRetention": "1", "backupRetention": "1"}), nil},
		{"monthly on the 31st", pol("monthly-31", "monthly", "0", "1", "", "31", "1", "6"), "pg-monthly-31",
			base(map[string]any{"granularity": "Monthly", "minute": "0", "hour": "1", "dayOfMonth": "31", "snapshotRetention": "1", "backupRetention": "6"}),
			[]string{`protection policy "monthly-31" (monthly-31): day of month 31: neither Astra Control's nor Trident protect's documentation says what a monthly schedule does in a month that has no day 31`}},
		{"both retentions 0", pol("zero", "daily", "0", "0", "", "", "0", "0"), "pg-zero",
			base(map[string]any{"granularity": "Daily", "minute": "0", "hour": "0", "snapshotRetention": "0", "backupRetention": "0"}),
			[]string{`protection policy "zero" (zero): snapshot and backup retention are both 0: Trident protect takes neither snapshots nor backups for this Schedule`}},
		{"fields the granularity does not use are left out", pol("extra", "hourly", "10", "5", "3", "12", "2", "2"), "pg-extra",
			base(map[string]any{"granularity": "Hourly", "minute": "10", "snapshotRetention": "2", "backupRetention": "2"}),
			[]string{
				`protection policy "extra" (extra): hour 5 is not used by an hourly schedule; left out`,
				`protection policy "extra" (extra): day of week 3 is not used by an hourly schedule; left out`,
				`protection policy "extra" (extra): day of month 12 is not used by an hourly schedule; left out`,
			}},
		{"monthly with a day of week", pol("monthly-dow", "monthly", "0", "0", "1", "15", "1", "1"), "pg-monthly-dow",
			base(map[string]any{"granularity": "Monthly", "minute": "0", "hour": "0", "dayOfMonth": "15", "snapshotRetention": "1", "backupRetention": "1"}),
			[]string{`protection policy "monthly-dow" (monthly-dow): day of week 1 is not used by a monthly schedule; left out`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, scheduleEstate(c.policy), Options{})
			m := find(t, r, KindSchedule, c.wantName)
			if m.Namespace != "db" {
				t.Errorf("namespace %q, want db", m.Namespace)
			}
			c.wantSpec["applicationRef"] = appRef(t, r, "pg")
			if !reflect.DeepEqual(specOf(m), c.wantSpec) {
				t.Errorf("spec:\n%s\nwant:\n%s", jsonOf(specOf(m)), jsonOf(c.wantSpec))
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), c.warnings)
			assertValid(t, r)
		})
	}
}

func TestScheduleDisabled(t *testing.T) {
	p := Policy{ID: "p-1", Name: "nightly", Granularity: "daily", Minute: "0", Hour: "1", SnapshotRetention: "3", BackupRetention: "7", BucketID: "b-2", Disabled: true}
	r := mustRender(t, scheduleEstate(p), Options{})
	spec := specOf(find(t, r, KindSchedule, "pg-nightly"))
	if spec["enabled"] != false || spec["appVaultRef"] != "other" {
		t.Errorf("enabled %v, appVaultRef %v; want false, other", spec["enabled"], spec["appVaultRef"])
	}
	sameStrings(t, "warnings", warningTexts(r.Warnings), []string{
		`protection policy "nightly" (p-1): is disabled in Astra Control: rendered with spec.enabled false, so it takes no snapshots or backups until enabled`})
	assertValid(t, r)
}

// Where a policy's backups go decides its AppVault; without one there is no Schedule.
func TestScheduleBucket(t *testing.T) {
	daily := Policy{ID: "p-1", Name: "daily", Granularity: "daily", Minute: "0", Hour: "1", SnapshotRetention: "3", BackupRetention: "7"}
	snapOnly := Policy{ID: "p-2", Name: "snaps", Granularity: "hourly", Minute: "0", SnapshotRetention: "24", BackupRetention: "0"}
	with := func(p Policy, bucket string) Policy { p.BucketID = bucket; return p }
	noDefault := func(e Estate) Estate { e.Apps[0].DefaultBucketID = ""; return e }
	badBucket := func(e Estate) Estate { e.Buckets[0].S3 = nil; return e }
	otherDefault := func(e Estate) Estate { e.Apps[0].DefaultBucketID = "b-9"; return e }
	cases := []struct {
		name      string
		estate    Estate
		wantVault string // "" no Schedule
		warnings  []string
	}{
		{"its own bucket", scheduleEstate(with(daily, "b-2")), "other", nil},
		{"no bucket: the app's default bucket", scheduleEstate(daily), "vault",
			[]string{`protection policy "daily" (p-1): names no bucket: its Schedule uses AppVault "vault", of the default bucket "vault", where Astra Control sends such a policy's backups; check that it is the bucket they went to`}},
		{"no bucket and no default", noDefault(scheduleEstate(daily)), "",
			[]string{`protection policy "daily" (p-1): names no bucket, and no default bucket is known: a Trident protect Schedule needs an AppVault, even for snapshots only; no Schedule is rendered`}},
		{"snapshots only, no bucket and no default", noDefault(scheduleEstate(snapOnly)), "",
			[]string{`protection policy "snaps" (p-2): names no bucket, and no default bucket is known: a Trident protect Schedule needs an AppVault, even for snapshots only; no Schedule is rendered`}},
		{"a bucket not given", scheduleEstate(with(daily, "b-9")), "",
			[]string{`protection policy "daily" (p-1): its bucket b-9 is not among the buckets rendered; no Schedule is rendered`}},
		{"a bucket that is no AppVault", badBucket(scheduleEstate(with(daily, "b-1"))), "",
			[]string{
				`bucket "vault" (b-1): has no S3 bucket name; no AppVault is rendered`,
				`protection policy "daily" (p-1): its bucket "vault" could not be rendered as an AppVault (see that bucket's warnings); no Schedule is rendered`,
			}},
		{"the default bucket is no AppVault", badBucket(scheduleEstate(daily)), "",
			[]string{
				`bucket "vault" (b-1): has no S3 bucket name; no AppVault is rendered`,
				`protection policy "daily" (p-1): names no bucket, and the default bucket "vault" could not be rendered as an AppVault (see that bucket's warnings): a Trident protect Schedule needs an AppVault, even for snapshots only; no Schedule is rendered`,
			}},
		{"the default bucket is not given", otherDefault(scheduleEstate(daily)), "",
			[]string{`protection policy "daily" (p-1): names no bucket, and the default bucket b-9 is not among the buckets rendered: a Trident protect Schedule needs an AppVault, even for snapshots only; no Schedule is rendered`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, c.estate, Options{})
			var got string
			for _, m := range r.Manifests {
				if m.Kind == KindSchedule {
					got = specOf(m)["appVaultRef"].(string)
				}
			}
			if got != c.wantVault {
				t.Errorf("appVaultRef %q, want %q (manifests %v)", got, c.wantVault, manifestKeys(r))
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), c.warnings)
			assertValid(t, r)
		})
	}
}

func TestScheduleNotRendered(t *testing.T) {
	pol := func(gran, minute, hour, dow, dom, snap, backup string) Policy {
		return Policy{ID: "p", Name: "x", Granularity: gran, Minute: minute, Hour: hour, DayOfWeek: dow, DayOfMonth: dom,
			SnapshotRetention: snap, BackupRetention: backup, BucketID: "b-1"}
	}
	const obj = `protection policy "x" (p): `
	cases := []struct {
		name    string
		policy  Policy
		warning string
	}{
		{"custom granularity", pol("custom", "0", "", "", "", "1", "0"),
			obj + `granularity "custom" has no Trident protect equivalent this rendering makes (hourly, daily, weekly, monthly); no Schedule is rendered`},
		{"no granularity", pol("", "0", "", "", "", "1", "0"),
			obj + `granularity "" has no Trident protect equivalent this rendering makes (hourly, daily, weekly, monthly); no Schedule is rendered`},
		{"hourly without a minute", pol("hourly", "", "", "", "", "1", "0"),
			obj + `has no minute, which an hourly schedule needs; no Schedule is rendered`},
		{"daily without an hour", pol("daily", "0", "*", "", "", "1", "1"),
			obj + `has no hour, which a daily schedule needs; no Schedule is rendered`},
		{"weekly without a day", pol("weekly", "0", "1", "", "", "1", "1"),
			obj + `has no day of week, which a weekly schedule needs; no Schedule is rendered`},
		{"monthly without a day", pol("monthly", "0", "1", "", "", "1", "1"),
			obj + `has no day of month, which a monthly schedule needs; no Schedule is rendered`},
		{"minute 60", pol("hourly", "60", "", "", "", "1", "1"),
			obj + `minute "60" is not a number from 0 to 59; no Schedule is rendered`},
		{"hour 24", pol("daily", "0", "24", "", "", "1", "1"),
			obj + `hour "24" is not a number from 0 to 23; no Schedule is rendered`},
		{"day of week 8", pol("weekly", "0", "0", "8", "", "1", "1"),
			obj + `day of week "8" is not a number from 0 to 7; no Schedule is rendered`},
		{"day of month 0", pol("monthly", "0", "0", "", "0", "1", "1"),
			obj + `day of month "0" is not a number from 1 to 31; no Schedule is rendered`},
		{"day of month 32", pol("monthly", "0", "0", "", "32", "1", "1"),
			obj + `day of month "32" is not a number from 1 to 31; no Schedule is rendered`},
		{"signed and non-numeric", pol("daily", "+5", "9x", "", "", "1", "1"),
			obj + `minute "+5" is not a number from 0 to 59; hour "9x" is not a number from 0 to 23; no Schedule is rendered`},
		{"bad retentions", pol("hourly", "0", "", "", "", "-1", ""),
			obj + `snapshot retention "-1" is not a non-negative integer; backup retention "" is not a non-negative integer; no Schedule is rendered`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustRender(t, scheduleEstate(c.policy), Options{})
			for _, m := range r.Manifests {
				if m.Kind == KindSchedule {
					t.Errorf("rendered %s", m.Key())
				}
			}
			sameStrings(t, "warnings", warningTexts(r.Warnings), []string{c.warning})
		})
	}
}
