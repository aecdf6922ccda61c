package tridentprotect

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// How each string input reaches the output. A field added to the inputs fails
// TestEveryInputStringIsClassified until it is placed here, so that no new field carries a
// value out unexamined.
const (
	copied   = "copied into manifests by design (names, locations, selectors, scripts)"
	mapped   = "read as an enum or number, never copied as it is"
	listed   = "names the Astra credential in Rendering.Secrets only, never in a manifest"
	stripped = "may embed credentials (URL user information, query): only its host and port are copied"
	resolved = "an Astra ID resolved to a rendered object's name; quoted in a warning when it resolves to none"
	unused   = "not emitted"
)

var inputStrings = map[string]string{
	"Bucket.ID": copied, "Bucket.Name": copied, "Bucket.Provider": mapped, "Bucket.State": mapped,
	"Bucket.S3.ServerURL": stripped, "Bucket.S3.BucketName": copied,
	"Bucket.GCP.BucketName": copied, "Bucket.GCP.ProjectID": copied,
	"Bucket.Azure.StorageAccount": copied, "Bucket.Azure.BucketName": copied, "Bucket.Azure.Endpoint": copied,
	"Bucket.CredentialID": listed, "Bucket.CredentialName": listed,
	"App.ID": copied, "App.Name": copied, "App.DefaultBucketID": resolved,
	"App.NamespaceScopedResources.Namespace": copied, "App.NamespaceScopedResources.LabelSelectors": copied,
	"App.ClusterScopedResources.Group": copied, "App.ClusterScopedResources.Version": copied,
	"App.ClusterScopedResources.Kind": copied, "App.ClusterScopedResources.LabelSelectors": copied,
	"App.Policies.ID": copied, "App.Policies.Name": copied, "App.Policies.Granularity": mapped,
	"App.Policies.Minute": mapped, "App.Policies.Hour": mapped, "App.Policies.DayOfWeek": mapped, "App.Policies.DayOfMonth": mapped,
	"App.Policies.SnapshotRetention": mapped, "App.Policies.BackupRetention": mapped, "App.Policies.BucketID": resolved,
	"App.Hooks.ID": copied, "App.Hooks.Name": copied, "App.Hooks.HookType": mapped, "App.Hooks.Action": mapped, "App.Hooks.Stage": mapped,
	"App.Hooks.Arguments": copied, "App.Hooks.MatchingCriteria.Type": mapped, "App.Hooks.MatchingCriteria.Value": copied,
	"App.Hooks.Source.ID": unused, "App.Hooks.Source.Name": copied, "App.Hooks.Source.Script": copied,
}

func TestEveryInputStringIsClassified(t *testing.T) {
	var found []string
	walkStrings(reflect.TypeFor[Bucket](), "Bucket", &found)
	walkStrings(reflect.TypeFor[App](), "App", &found)
	var classified []string
	for k := range inputStrings {
		classified = append(classified, k)
	}
	sort.Strings(found)
	sort.Strings(classified)
	sameStrings(t, "string inputs (reflection vs. classification)", found, classified)
}

// No input type has a field meant for a credential value: what is not given cannot leak.
func TestNoInputFieldHoldsCredentials(t *testing.T) {
	credentialish := regexp.MustCompile(`(?i)secret|password|passwd|token|accesskey|keystore|privatekey|accountkey|apikey|base64`)
	var fields []string
	walkAll(reflect.TypeFor[Estate](), "Estate", &fields)
	walkAll(reflect.TypeFor[Options](), "Options", &fields)
	for _, f := range fields {
		if credentialish.MatchString(f) && f != "Options.DataMoverPasswordSecret" { // a Secret's name
			t.Errorf("input field %s looks meant for a credential value", f)
		}
	}
	if len(fields) < 40 {
		t.Errorf("walked only %d fields: the walk is broken", len(fields))
	}
}

// The sentinel, put everywhere a credential could hide in the inputs, appears nowhere in a
// rendering: not in manifests, YAML, warnings or the Secrets list. The credential's name
// and ID, listed for the user, appear in the Secrets list and nowhere else.
func TestNoSecretValueIsEmitted(t *testing.T) {
	const sentinel = "s3cr3tSENTINEL"
	urls := []string{
		"https://AKIA" + sentinel + ":" + sentinel + "@s3.example.com",
		"http://" + sentinel + "@10.0.0.5:9000/bucket?X-Amz-Signature=" + sentinel,
		"s3.example.com/" + sentinel + "?token=" + sentinel + "#" + sentinel,
		"https://s3.example.com:8443/?" + sentinel,
		"https://" + sentinel + ":x@s3.example.com:bad", // does not parse: nothing rendered, nothing quoted
		"ftp://" + sentinel + "@s3.example.com",
	}
	var buckets []Bucket
	for i, u := range urls {
		for _, p := range []string{"ontap-s3", "storagegrid-s3", "generic-s3", "aws"} {
			buckets = append(buckets, Bucket{ID: fmt.Sprintf("b-%d-%s", i, p), Name: fmt.Sprintf("b-%d-%s", i, p), Provider: p,
				S3:           &S3Location{ServerURL: u, BucketName: "backups"},
				CredentialID: "cred-id-" + sentinel, CredentialName: "cred-name-" + sentinel})
		}
	}
	buckets = append(buckets,
		Bucket{ID: "g", Name: "g", Provider: "gcp", GCP: &GCPLocation{BucketName: "g", ProjectID: "acme-prod"}, CredentialID: "cred-id-" + sentinel, CredentialName: "cred-name-" + sentinel},
		Bucket{ID: "z", Name: "z", Provider: "azure", Azure: &AzureLocation{StorageAccount: "acct", BucketName: "c"}, CredentialID: "cred-id-" + sentinel, CredentialName: "cred-name-" + sentinel})
	e := sampleEstate()
	e.Buckets = buckets
	r := mustRender(t, e, Options{DataMoverPasswordSecret: "pw"})
	if len(r.Manifests) < 10 {
		t.Fatalf("only %d manifests: the test renders too little to show anything", len(r.Manifests))
	}
	// Secrets aside, nothing of the sentinel anywhere.
	withoutSecrets := r
	withoutSecrets.Secrets = nil
	if dump := fmt.Sprintf("%+v", withoutSecrets); strings.Contains(dump, sentinel) {
		i := strings.Index(dump, sentinel)
		t.Errorf("the sentinel leaks into the rendering near %q", dump[max(0, i-120):min(len(dump), i+40)])
	}
	// The Secrets list names the credential and nothing else of it.
	for _, s := range r.Secrets {
		s.CredentialID, s.CredentialName = "", ""
		if dump := fmt.Sprintf("%+v", s); strings.Contains(dump, sentinel) {
			t.Errorf("the sentinel leaks into secret %s: %s", s.Name, dump)
		}
	}
	if r.Secrets[0].CredentialName != "cred-name-"+sentinel {
		t.Errorf("the Secrets list should name the credential, got %+v", r.Secrets[0])
	}
}

func walkStrings(t reflect.Type, path string, out *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String {
				break
			}
			ft = ft.Elem()
		}
		switch {
		case ft.Kind() == reflect.String || (ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String):
			*out = append(*out, path+"."+f.Name)
		case ft.Kind() == reflect.Struct:
			walkStrings(ft, path+"."+f.Name, out)
		}
	}
}

func walkAll(t reflect.Type, path string, out *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		*out = append(*out, path+"."+f.Name)
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			walkAll(ft, path+"."+f.Name, out)
		}
	}
}
