package tridentprotect

import (
	"strings"
	"testing"
)

func TestSanitizeName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"mysql", "mysql"},
		{"ONTAP S3 (prod)", "ontap-s3-prod"},
		{"daily schedule", "daily-schedule"},
		{"a.b_c", "a-b-c"},
		{"--a--b--", "a-b"},
		{"1st-app", "1st-app"},
		{"Ünïcode-app", "n-code-app"},
		{"___", "fallback"},
		{"", "fallback"},
		{"日本語", "fallback"},
		{strings.Repeat("x", 80), strings.Repeat("x", 63)},
		{strings.Repeat("ab-", 30), strings.TrimSuffix(strings.Repeat("ab-", 21), "-")}, // cut at 63, then the '-' it ends on
	}
	for _, c := range cases {
		got := sanitizeName(c.in, "fallback")
		if got != c.want {
			t.Errorf("sanitizeName(%q) = %q, want %q", c.in, got, c.want)
		}
		if !rfc1123.MatchString(got) {
			t.Errorf("sanitizeName(%q) = %q, not an RFC 1123 label", c.in, got)
		}
	}
}

// The hashes are hard-coded: a name is what kubernetes_manifest tracks, so a change here
// would replace users' resources. Change them only with a deprecation path.
func TestAssignNames(t *testing.T) {
	long := strings.Repeat("a", 63)
	cases := []struct {
		name string
		in   []nameRequest
		want []string
		// sameKeys: requests no key tells apart, so which gets which counter is moot.
		sameKeys bool
	}{
		{"unique bases are kept", []nameRequest{{"prod", "b-1"}, {"test", "b-2"}}, []string{"prod", "test"}, false},
		{"a shared base is suffixed on every holder", []nameRequest{{"prod-backups", "b-1"}, {"prod-backups", "b-2"}, {"prod", "b-3"}},
			[]string{"prod-backups-3e499", "prod-backups-77c10", "prod"}, false},
		{"a suffixed name meeting another's own name gets a longer hash",
			[]nameRequest{{"prod-backups", "b-1"}, {"prod-backups", "b-2"}, {"prod-backups-3e499", "b-9"}},
			[]string{"prod-backups-3e499e752620", "prod-backups-77c10", "prod-backups-3e499-b4fd2a7d090a"}, false},
		{"identical keys get a counter", []nameRequest{{"daily", "same"}, {"daily", "same"}, {"daily", "other"}},
			[]string{"daily-0967115f2813-1", "daily-0967115f2813-2", "daily-d9298"}, true},
		{"a long base is cut to leave room for the suffix", []nameRequest{{long, "b-1"}, {long, "b-2"}},
			[]string{strings.Repeat("a", 57) + "-3e499", strings.Repeat("a", 57) + "-77c10"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := assignNames(c.in)
			sameStrings(t, "names", got, c.want)
			for _, n := range got {
				if !rfc1123.MatchString(n) {
					t.Errorf("%q is not an RFC 1123 label", n)
				}
			}
			if c.sameKeys {
				return
			}
			// The same requests in reverse order get the same names.
			rev := make([]nameRequest, len(c.in))
			for i, r := range c.in {
				rev[len(c.in)-1-i] = r
			}
			back := assignNames(rev)
			for i := range back {
				if back[i] != got[len(got)-1-i] {
					t.Errorf("reversed input: %q got %q, forward %q", rev[i].key, back[i], got[len(got)-1-i])
				}
			}
		})
	}
}

// Collisions in a whole rendering: per kind and namespace, whatever order the estate is in.
func TestRenderNameCollisions(t *testing.T) {
	s3 := func(id, name string) Bucket {
		return Bucket{ID: id, Name: name, Provider: "generic-s3", S3: &S3Location{ServerURL: "s3.example.com", BucketName: "b"}}
	}
	app := func(id, name, ns string, pols ...Policy) App {
		return App{ID: id, Name: name, NamespaceScopedResources: []NamespaceScope{{Namespace: ns}}, Policies: pols,
			Hooks: []Hook{{ID: id + "-h", Name: "quiesce", Action: "snapshot", Stage: "pre", Source: HookSource{Script: "true"}}}}
	}
	daily := func(id, name, bucket string) Policy {
		return Policy{ID: id, Name: name, Granularity: "daily", Minute: "0", Hour: "1", SnapshotRetention: "1", BackupRetention: "1", BucketID: bucket}
	}
	e := Estate{
		Buckets: []Bucket{s3("b-1", "prod backups"), s3("b-2", "prod_backups"), s3("b-3", "Prod")},
		Apps: []App{
			app("a-1", "shop", "shop", daily("p-1", "daily", "b-1"), daily("p-2", "Daily", "b-2")),
			app("a-2", "Shop", "shop-2"),
			app("a-3", "shop", "shared"), app("a-4", "SHOP", "shared"),
		},
	}
	r := mustRender(t, e, Options{})
	want := []string{
		"AppVault.trident-protect.prod",
		"AppVault.trident-protect.prod-backups-3e499",
		"AppVault.trident-protect.prod-backups-77c10",
		"Application.shared.shop-1ec082-2cb72", "ExecHook.shared.quiesce-6a3a3", // a-3
		"Application.shared.shop-1ec082-3889b", "ExecHook.shared.quiesce-3340c", // a-4
		"Application.shop.shop-5a436c", "Schedule.shop.shop-daily-1dee6", "Schedule.shop.shop-daily-b97db", "ExecHook.shop.quiesce",
		"Application.shop-2.shop-b354a8", "ExecHook.shop-2.quiesce",
	}
	sameStrings(t, "manifests", manifestKeys(r), want)
	// Each Schedule still points at its own bucket's AppVault.
	if got := specOf(find(t, r, KindSchedule, "shop-daily-1dee6"))["appVaultRef"]; got != "prod-backups-3e499" {
		t.Errorf("p-1's appVaultRef = %v, want prod-backups-3e499", got)
	}
	// ExecHooks refer to their own app's suffixed Application (the two in "shared" have one
	// scope, so one scope hash, and are told apart by a hash of their IDs).
	for _, m := range r.Manifests {
		if m.Kind == KindExecHook && m.Namespace == "shared" {
			app := "shop-1ec082-2cb72"
			if m.Source.ID == "a-4-h" {
				app = "shop-1ec082-3889b"
			}
			if got := specOf(m)["applicationRef"]; got != app {
				t.Errorf("%s applicationRef = %v, want %s", m.Key(), got, app)
			}
		}
	}
	assertValid(t, r)
}
