package apispec

import (
	"strings"
	"testing"
)

func TestNewestVersionPerRelease(t *testing.T) {
	cases := []struct{ release, resource, want string }{
		{"22.11", Cluster, "1.3"},
		{"23.05", Cluster, "1.4"},
		{"23.07", Cluster, "1.5"},
		{"23.10", Cluster, "1.6"},
		{"24.02", Cluster, "1.7"},
		{"23.07", ManagedCluster, "1.2"},
		{"23.10", ManagedCluster, "1.3"},
		{"24.02", ManagedCluster, "1.7"},
		{"23.07", Cloud, "1.1"},
		{"23.07", Credential, "1.1"},
		{"23.07", StorageClass, "1.1"},
		// The third cut (shared/spec/README.md's table): day-two objects.
		{"22.11", AppSnap, "1.1"},
		{"23.05", AppSnap, "1.2"},
		{"24.02", AppSnap, "1.3"},
		{"22.11", AppBackup, "1.1"},
		{"24.02", AppBackup, "1.2"},
		{"23.05", ExecutionHook, "1.2"},
		{"23.07", ExecutionHook, "1.3"},
		{"24.02", HookSource, "1.0"},
	}
	for _, c := range cases {
		got, err := NewestVersion(c.release, c.resource)
		if err != nil || got != c.want {
			t.Errorf("NewestVersion(%s, %s) = %q, %v; want %q", c.release, c.resource, got, err, c.want)
		}
	}
}

func TestAcceptedVersions(t *testing.T) {
	got, err := AcceptedVersions("23.07", Cluster)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "1.5,1.4,1.3,1.2,1.1,1.0" {
		t.Errorf("AcceptedVersions(23.07, cluster) = %v", got)
	}
}

func TestSchemaFallsBackToOlderRelease(t *testing.T) {
	_, from, ok := Schema("24.02", Cluster, "1.3", PostRequest)
	if !ok || from != "22.11" {
		t.Fatalf("cluster 1.3 post schema: from=%q ok=%v, want 22.11", from, ok)
	}
	if _, _, ok := Schema("23.07", Cluster, "1.7", PostRequest); ok {
		t.Fatal("23.07 must not see the 1.7 schema published later")
	}
	if _, _, ok := Schema("24.02", Cluster, "1.1", PostRequest); ok {
		t.Fatal("cluster 1.1 was never published")
	}
}

func TestValidateReportsViolations(t *testing.T) {
	schema, _, ok := Schema("23.07", Cluster, "1.5", PostRequest)
	if !ok {
		t.Fatal("no cluster 1.5 post schema")
	}
	good := `{"type":"application/astra-cluster","version":"1.5","credentialID":"8f84cf09-8036-51e4-b579-bd30cb07b269"}`
	if err := Validate(schema, []byte(good)); err != nil {
		t.Fatalf("valid body refused: %v", err)
	}
	bad := `{"type":"application/astra-cluster","version":"9.9","name":"","bogus":1}`
	err := Validate(schema, []byte(bad))
	if err == nil {
		t.Fatal("invalid body accepted")
	}
	for _, want := range []string{"version", "name", "bogus"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if err := Validate(schema, []byte("{")); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("malformed JSON: %v", err)
	}
}

func TestCompareVersions(t *testing.T) {
	if CompareVersions("1.10", "1.9") <= 0 || CompareVersions("1.5", "1.5") != 0 || CompareReleases("23.07", "24.02") >= 0 {
		t.Fatal("version ordering is wrong")
	}
}

func TestUnknownRelease(t *testing.T) {
	if _, err := Load("21.01"); err == nil || !strings.Contains(err.Error(), "22.11") {
		t.Fatalf("unknown release error should list known ones: %v", err)
	}
}
