package tridentprotect

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.yaml from the current rendering")

// The sample estate renders to the reviewed YAML in testdata, every manifest in the
// documented shape, with no warning.
func TestRenderSampleEstate(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{})
	assertValid(t, r)
	sameStrings(t, "warnings", warningTexts(r.Warnings), nil)
	sameStrings(t, "manifests", manifestKeys(r), []string{
		"AppVault.trident-protect.aws-east",
		"AppVault.trident-protect.azure-blob",
		"AppVault.trident-protect.gcs-backups",
		"AppVault.trident-protect.grid-backups",
		"AppVault.trident-protect.minio",
		"AppVault.trident-protect.ontap-s3-prod",
		"Application.mysql.mysql-236854",
		"Schedule.mysql.mysql-daily-schedule",
		"Schedule.mysql.mysql-hourly-schedule",
		"Schedule.mysql.mysql-monthly-schedule",
		"Schedule.mysql.mysql-weekly-schedule",
		"ExecHook.mysql.mysql-quiesce",
		"ExecHook.mysql.mysql-unquiesce",
		"Application.wordpress.wordpress-d96b78",
		"Schedule.wordpress.wordpress-nightly",
		"Schedule.wordpress.wordpress-weekly-off-site",
		"ExecHook.wordpress.wp-cache-flush",
	})
	golden(t, "sample.golden.yaml", r.YAML)
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("rendering differs from %s (review, then -update):\n%s", path, got)
	}
}

// Same input, same bytes: rendering again, and rendering the estate listed in any order.
func TestRenderDeterministic(t *testing.T) {
	e := sampleEstate()
	// Collisions and warnings make order matter most; add some.
	e.Buckets = append(e.Buckets, Bucket{ID: "b-dup", Name: "minio!", Provider: "generic-s3", S3: &S3Location{ServerURL: "s3.example.com", BucketName: "x"}})
	e.Apps = append(e.Apps, App{ID: "a-dup", Name: "MySQL", NamespaceScopedResources: []NamespaceScope{
		{Namespace: "mysql", LabelSelectors: []string{"app=a", "app=b"}}, {Namespace: "other"},
	}, Policies: []Policy{{ID: "p-bad", Name: "bad", Granularity: "custom", BucketID: e.Buckets[0].ID}}})
	e.Apps[1].Policies[1].DayOfWeek = "7" // warnings from two apps, so their order shows
	first := mustRender(t, e, Options{})
	for seed := range uint64(20) {
		shuffled := shuffleEstate(e, rand.New(rand.NewPCG(seed, 7)))
		r := mustRender(t, shuffled, Options{})
		if r.YAML != first.YAML {
			t.Fatalf("seed %d: YAML differs:\n%s\nfirst:\n%s", seed, r.YAML, first.YAML)
		}
		if !reflect.DeepEqual(r.Warnings, first.Warnings) || !reflect.DeepEqual(r.Secrets, first.Secrets) {
			t.Fatalf("seed %d: warnings or secrets differ:\n%v\n%v", seed, warningTexts(r.Warnings), warningTexts(first.Warnings))
		}
		for i := range r.Manifests {
			if r.Manifests[i].YAML != first.Manifests[i].YAML || !reflect.DeepEqual(r.Manifests[i].Object, first.Manifests[i].Object) {
				t.Fatalf("seed %d: manifest %d differs", seed, i)
			}
		}
	}
	if len(first.Warnings) != 3 {
		t.Errorf("the test estate should warn 3 times, got %v", warningTexts(first.Warnings))
	}
}

func shuffleEstate(e Estate, rng *rand.Rand) Estate {
	out := Estate{Buckets: append([]Bucket(nil), e.Buckets...)}
	rng.Shuffle(len(out.Buckets), func(i, j int) { out.Buckets[i], out.Buckets[j] = out.Buckets[j], out.Buckets[i] })
	for _, a := range e.Apps {
		a.NamespaceScopedResources = shuffled(a.NamespaceScopedResources, rng)
		a.ClusterScopedResources = shuffled(a.ClusterScopedResources, rng)
		a.Policies = shuffled(a.Policies, rng)
		a.Hooks = shuffled(a.Hooks, rng)
		out.Apps = append(out.Apps, a)
	}
	rng.Shuffle(len(out.Apps), func(i, j int) { out.Apps[i], out.Apps[j] = out.Apps[j], out.Apps[i] })
	return out
}

func shuffled[T any](in []T, rng *rand.Rand) []T {
	out := append([]T(nil), in...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// Objects hold only what converts to a Terraform value as it is.
func TestManifestValueTypes(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{DataMoverPasswordSecret: "pw"})
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string, bool:
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			for k, e := range x {
				walk(path+"."+k, e)
			}
		default:
			t.Errorf("%s: %T is not string, bool, []any or map[string]any", path, v)
		}
	}
	for _, m := range r.Manifests {
		walk(m.Key(), m.Object)
	}
}

// Each manifest's YAML decodes back to its object; the stream is the documents in order.
func TestManifestYAML(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{})
	var stream strings.Builder
	for _, m := range r.Manifests {
		if !strings.HasPrefix(m.YAML, "# Rendered from Astra Control "+m.Source.Kind+" ") {
			t.Errorf("%s: YAML does not start with its source comment:\n%s", m.Key(), m.YAML)
		}
		var back map[string]any
		if err := yaml.Unmarshal([]byte(m.YAML), &back); err != nil {
			t.Fatalf("%s: %v", m.Key(), err)
		}
		if a, b := jsonString(t, back), jsonString(t, m.Object); a != b {
			t.Errorf("%s: YAML decodes to\n%s\nnot\n%s", m.Key(), a, b)
		}
		md := back["metadata"].(map[string]any)
		if key := fmt.Sprint(back["kind"], ".", md["namespace"], ".", md["name"]); key != m.Key() {
			t.Errorf("key from the YAML %q, Key() %q", key, m.Key())
		}
		stream.WriteString("---\n" + m.YAML)
	}
	if r.YAML != stream.String() {
		t.Errorf("the stream is not the documents in order")
	}
	if n := strings.Count(r.YAML, "\n---\n") + 1; n != len(r.Manifests) {
		t.Errorf("%d documents in the stream, want %d", n, len(r.Manifests))
	}
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A name cannot end the provenance comment and smuggle YAML into the document.
func TestYAMLCommentHoldsAnyName(t *testing.T) {
	name := "evil\nkind: Secret\n---\nstringData: {a: b}\u2028x"
	e := Estate{Buckets: []Bucket{{ID: "id\nmetadata: {}", Name: name, Provider: "generic-s3", S3: &S3Location{ServerURL: "s3.example.com", BucketName: "b"}}}}
	r := mustRender(t, e, Options{})
	m := r.Manifests[0]
	lines := strings.Split(m.YAML, "\n")
	if !strings.HasPrefix(lines[0], "# Rendered from Astra Control bucket \"evil\\nkind: Secret") || strings.Count(m.YAML, "#") != 1 {
		t.Errorf("comment line %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "apiVersion: ") {
		t.Errorf("the comment spans more than one line:\n%s", m.YAML)
	}
	var back map[string]any
	if err := yaml.Unmarshal([]byte(m.YAML), &back); err != nil || back["kind"] != KindAppVault {
		t.Errorf("decodes to %v (%v)", back, err)
	}
	if m.Name != "evil-kind-secret-stringdata-a-b-x" {
		t.Errorf("name %q", m.Name)
	}
}

// Every reference resolves within the rendering: Schedules and ExecHooks to their
// Application in their namespace, Schedules to an AppVault, AppVaults to a listed Secret
// and key.
func TestReferencesResolve(t *testing.T) {
	r := mustRender(t, sampleEstate(), Options{DataMoverPasswordSecret: "pw"})
	have := map[string]bool{}
	for _, m := range r.Manifests {
		have[m.Key()] = true
	}
	secretKeys := map[string]bool{}
	for _, s := range r.Secrets {
		for _, k := range s.Keys {
			secretKeys[s.Namespace+"/"+s.Name+"/"+k] = true
		}
	}
	for _, m := range r.Manifests {
		spec := specOf(m)
		switch m.Kind {
		case KindSchedule, KindExecHook:
			if ref := "Application." + m.Namespace + "." + spec["applicationRef"].(string); !have[ref] {
				t.Errorf("%s: applicationRef %s is not rendered", m.Key(), ref)
			}
			if m.Kind == KindSchedule {
				if ref := "AppVault.trident-protect." + spec["appVaultRef"].(string); !have[ref] {
					t.Errorf("%s: appVaultRef %s is not rendered", m.Key(), ref)
				}
			}
		case KindAppVault:
			for k, v := range spec["providerCredentials"].(map[string]any) {
				ref := v.(map[string]any)["valueFromSecret"].(map[string]any)
				if id := m.Namespace + "/" + ref["name"].(string) + "/" + ref["key"].(string); !secretKeys[id] || ref["key"] != k {
					t.Errorf("%s: credential %s reads %s, which no listed Secret holds", m.Key(), k, id)
				}
			}
			if !secretKeys[m.Namespace+"/"+spec["dataMoverPasswordSecretRef"].(string)+"/KOPIA_PASSWORD"] {
				t.Errorf("%s: the data mover password Secret is not listed", m.Key())
			}
		}
	}
}

func TestRenderOptions(t *testing.T) {
	for _, o := range []Options{{ProtectNamespace: "Trident_Protect"}, {DataMoverPasswordSecret: "my secret"}, {ProtectNamespace: strings.Repeat("a", 64)}} {
		if _, err := Render(sampleEstate(), o); err == nil {
			t.Errorf("Render with %+v: want an error", o)
		}
	}
	r := mustRender(t, sampleEstate(), Options{ProtectNamespace: "tp"})
	for _, m := range r.Manifests {
		if m.Kind == KindAppVault && m.Namespace != "tp" {
			t.Errorf("%s is not in the protect namespace", m.Key())
		}
	}
	for _, s := range r.Secrets {
		if s.Namespace != "tp" {
			t.Errorf("secret %s is not in the protect namespace", s.Name)
		}
	}
	if empty := mustRender(t, Estate{}, Options{}); len(empty.Manifests) != 0 || empty.YAML != "" || len(empty.Warnings) != 0 || len(empty.Secrets) != 0 {
		t.Errorf("an empty estate renders %+v", empty)
	}
}

func TestManifestKeyAndWarningString(t *testing.T) {
	m := Manifest{Kind: KindSchedule, Namespace: "db", Name: "pg-daily"}
	if m.Key() != "Schedule.db.pg-daily" {
		t.Errorf("Key() = %q", m.Key())
	}
	w := Warning{Object: `app "x" (1)`, Message: "m"}
	if w.String() != `app "x" (1): m` {
		t.Errorf("String() = %q", w.String())
	}
	if got := describe(Source{Kind: "bucket", Name: "n"}); got != `bucket "n"` {
		t.Errorf("describe without an ID = %q", got)
	}
}

// The guide reads the stream back in HCL: split("\n---\n", "\n${file}"), dropping the
// empty first part, then yamldecode each. That gives the documents back, even when a value
// holds a line "---".
func TestStreamSplitsAsTheGuideDoes(t *testing.T) {
	e := sampleEstate()
	e.Apps[0].Hooks[0].Arguments = []string{"a\n---\nb", "---", "x\n---"}
	e.Apps[0].Hooks[0].Source.Script = "#!/bin/sh\ncat <<EOF\n---\nEOF\n"
	r := mustRender(t, e, Options{})
	parts := strings.Split("\n"+r.YAML, "\n---\n")
	if parts[0] != "" {
		t.Fatalf("the stream does not start with a separator: %q", parts[0])
	}
	parts = parts[1:]
	if len(parts) != len(r.Manifests) {
		t.Fatalf("%d parts, want %d documents", len(parts), len(r.Manifests))
	}
	for i, p := range parts {
		var back map[string]any
		if err := yaml.Unmarshal([]byte(p), &back); err != nil {
			t.Fatalf("part %d: %v", i, err)
		}
		if a, b := jsonString(t, back), jsonString(t, r.Manifests[i].Object); a != b {
			t.Errorf("part %d decodes to\n%s\nnot\n%s", i, a, b)
		}
	}
}
