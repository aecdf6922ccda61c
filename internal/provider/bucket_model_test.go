package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/validate"
)

func TestBucketFrom(t *testing.T) {
	retention := 86400.0
	b := &astra.Bucket{ID: testBucketID, Name: "backups", CredentialID: testCredentialID, State: "failed",
		StateDetails:  []astra.StateDetail{{Type: "t", Title: "Bucket unavailable", Detail: "no such bucket"}},
		RetentionTime: &retention, Provider: "azure",
		BucketParameters: astra.BucketParameters{Azure: &astra.AzureBucketParameters{StorageAccount: "acct", BucketName: "c"}}}
	v := bucketFrom(b)
	if v.BucketProvider.ValueString() != "azure" || objectString(v.Azure, "storage_account") != "acct" || objectString(v.Azure, "bucket_name") != "c" {
		t.Errorf("location: %+v", v)
	}
	if !v.S3.IsNull() || !v.GCP.IsNull() {
		t.Error("the locations of other providers are null, so they never show as a change")
	}
	if v.RetentionTime.ValueInt64() != 86400 || len(v.StateDetails.Elements()) != 1 || v.State.ValueString() != "failed" {
		t.Errorf("status: %+v", v)
	}
	b.RetentionTime = nil // releases before 24.02 do not report it
	if !bucketFrom(b).RetentionTime.IsNull() {
		t.Error("an unreported retention time is null")
	}
}

func TestBucketRequests(t *testing.T) {
	s3 := types.ObjectValueMust(bucketS3AttrTypes, map[string]attr.Value{"server_url": types.StringValue("https://s3.example.com"), "bucket_name": types.StringValue("b")})
	plan := bucketValues{Name: types.StringValue("n"), BucketProvider: types.StringValue("aws"), CredentialID: types.StringValue(testCredentialID),
		S3: s3, GCP: types.ObjectNull(bucketGCPAttrTypes), Azure: types.ObjectNull(bucketAzureAttrTypes)}
	in := bucketCreateRequest(plan)
	if in.Provider != "aws" || in.Parameters.S3 == nil || in.Parameters.S3.ServerURL != "https://s3.example.com" || in.Parameters.GCP != nil || in.Parameters.Azure != nil {
		t.Errorf("create request: %+v", in)
	}
	read := &astra.Bucket{ID: testBucketID, Name: "old", CredentialID: "old", Provider: "aws"}
	plan.CredentialID, plan.Name = types.StringValue(testCredentialID), types.StringUnknown()
	applyBucketPlan(read, plan)
	if read.CredentialID != testCredentialID || read.Name != "old" {
		t.Errorf("the PUT carries the new credential and keeps what the plan leaves unknown: %+v", read)
	}
}

func TestBucketConfigProblems(t *testing.T) {
	s3 := types.ObjectValueMust(bucketS3AttrTypes, map[string]attr.Value{"server_url": types.StringValue("s3.example.com"), "bucket_name": types.StringValue("b")})
	gcp := types.ObjectValueMust(bucketGCPAttrTypes, map[string]attr.Value{"bucket_name": types.StringValue("b")})
	nullS3, nullGCP, nullAzure := types.ObjectNull(bucketS3AttrTypes), types.ObjectNull(bucketGCPAttrTypes), types.ObjectNull(bucketAzureAttrTypes)
	cases := []struct {
		name     string
		provider types.String
		s3, gcp  types.Object
		want     []string // attr: summary
	}{
		{"s3 for an s3 provider", types.StringValue("ontap-s3"), s3, nullGCP, nil},
		{"gcp for gcp", types.StringValue("gcp"), nullS3, gcp, nil},
		{"s3 for gcp", types.StringValue("gcp"), s3, nullGCP, []string{"s3: Bucket location does not match bucket_provider"}},
		{"both for gcp", types.StringValue("gcp"), s3, gcp, []string{"s3: Bucket location does not match bucket_provider"}},
		{"none for aws", types.StringValue("aws"), nullS3, nullGCP, []string{"s3: Missing s3"}},
		{"unknown provider waits for apply", types.StringUnknown(), s3, gcp, nil},
		{"an unknown location is not missing", types.StringValue("gcp"), nullS3, types.ObjectUnknown(bucketGCPAttrTypes), nil},
		{"a provider the schema refuses is the validator's", types.StringValue("ftp"), nullS3, nullGCP, nil},
	}
	for _, c := range cases {
		var got []string
		for _, p := range bucketConfigProblems(c.provider, c.s3, c.gcp, nullAzure) {
			got = append(got, p.attr+": "+p.summary)
			if !strings.Contains(p.detail, "bucket_provider") {
				t.Errorf("%s: the detail names bucket_provider: %s", c.name, p.detail)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCheckObjectStoreURL(t *testing.T) {
	for s, ok := range map[string]bool{
		"s3.example.com": true, "10.0.0.5:443": true, "https://s3.example.com": true, "http://minio.local:9000/base": true,
		"": false, "ftp://s3.example.com": false, "s3 example.com": false, "https://user:pw@s3.example.com": false,
		"https://s3.example.com?x=1": false, strings.Repeat("a", 1024): false,
	} {
		if err := validate.CheckObjectStoreURL(s); (err == nil) != ok {
			t.Errorf("CheckObjectStoreURL(%.40q) = %v, want ok %v", s, err, ok)
		}
	}
}
