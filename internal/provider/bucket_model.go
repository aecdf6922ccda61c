package provider

import (
	"fmt"
	"math"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider/attrs"
)

// bucketValues are a bucket's attributes, shared by astra_bucket (resource and data source)
// and the items of astra_buckets.
type bucketValues struct {
	ID             types.String `tfsdk:"id"`
	Name           types.String `tfsdk:"name"`
	BucketProvider types.String `tfsdk:"bucket_provider"`
	CredentialID   types.String `tfsdk:"credential_id"`
	S3             types.Object `tfsdk:"s3"`
	GCP            types.Object `tfsdk:"gcp"`
	Azure          types.Object `tfsdk:"azure"`
	State          types.String `tfsdk:"state"`
	StateDetails   types.List   `tfsdk:"state_details"`
	RetentionTime  types.Int64  `tfsdk:"retention_time"`
	Metadata       types.Object `tfsdk:"metadata"`
}

// bucketModel is the astra_bucket resource.
type bucketModel struct {
	bucketValues
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
	WaitForAvailable types.Bool     `tfsdk:"wait_for_available"`
}

// The nested location attributes, one per bucketParameters member.
var (
	bucketS3AttrTypes    = map[string]attr.Type{"server_url": types.StringType, "bucket_name": types.StringType}
	bucketGCPAttrTypes   = map[string]attr.Type{"bucket_name": types.StringType}
	bucketAzureAttrTypes = map[string]attr.Type{"storage_account": types.StringType, "bucket_name": types.StringType}
)

// bucketAPIFields maps the API's field names in invalidFields to attributes.
var bucketAPIFields = map[string]string{
	"name": "name", "provider": "bucket_provider", "credentialID": "credential_id", "bucketParameters": "bucket_provider",
	"bucketParameters.s3": "s3", "bucketParameters.gcp": "gcp", "bucketParameters.azure": "azure",
}

// bucketFrom converts the service's answer.
func bucketFrom(b *astra.Bucket) bucketValues {
	v := bucketValues{
		ID:             types.StringValue(b.ID),
		Name:           types.StringValue(b.Name),
		BucketProvider: types.StringValue(b.Provider),
		CredentialID:   attrs.OptionalString(b.CredentialID),
		S3:             types.ObjectNull(bucketS3AttrTypes),
		GCP:            types.ObjectNull(bucketGCPAttrTypes),
		Azure:          types.ObjectNull(bucketAzureAttrTypes),
		State:          attrs.OptionalString(b.State),
		StateDetails:   attrs.StateDetailsValue(b.StateDetails),
		RetentionTime:  types.Int64Null(),
		Metadata:       attrs.MetadataValue(b.Metadata),
	}
	if p := b.BucketParameters.S3; p != nil {
		v.S3 = types.ObjectValueMust(bucketS3AttrTypes, map[string]attr.Value{
			"server_url": types.StringValue(p.ServerURL), "bucket_name": types.StringValue(p.BucketName)})
	}
	if p := b.BucketParameters.GCP; p != nil {
		v.GCP = types.ObjectValueMust(bucketGCPAttrTypes, map[string]attr.Value{"bucket_name": types.StringValue(p.BucketName)})
	}
	if p := b.BucketParameters.Azure; p != nil {
		v.Azure = types.ObjectValueMust(bucketAzureAttrTypes, map[string]attr.Value{
			"storage_account": types.StringValue(p.StorageAccount), "bucket_name": types.StringValue(p.BucketName)})
	}
	if r := b.RetentionTime; r != nil && !math.IsNaN(*r) && math.Abs(*r) < math.MaxInt64 {
		v.RetentionTime = types.Int64Value(int64(*r))
	}
	return v
}

// bucketCreateRequest is the POST body for a planned bucket: the nested attribute that
// bucket_provider takes becomes bucketParameters (plan-time validation made it the only one).
func bucketCreateRequest(m bucketValues) astra.BucketCreate {
	in := astra.BucketCreate{Name: m.Name.ValueString(), CredentialID: m.CredentialID.ValueString(), Provider: m.BucketProvider.ValueString()}
	switch astra.BucketParametersKey(in.Provider) {
	case "s3":
		in.Parameters.S3 = &astra.S3BucketParameters{ServerURL: objectString(m.S3, "server_url"), BucketName: objectString(m.S3, "bucket_name")}
	case "gcp":
		in.Parameters.GCP = &astra.GCPBucketParameters{BucketName: objectString(m.GCP, "bucket_name")}
	case "azure":
		in.Parameters.Azure = &astra.AzureBucketParameters{StorageAccount: objectString(m.Azure, "storage_account"), BucketName: objectString(m.Azure, "bucket_name")}
	}
	return in
}

// applyBucketPlan sets the in-place arguments of the plan on the bucket read from the
// service, so the PUT carries everything else as read.
func applyBucketPlan(b *astra.Bucket, plan bucketValues) {
	if s := attrs.StringOrEmpty(plan.Name); s != "" {
		b.Name = s
	}
	if s := attrs.StringOrEmpty(plan.CredentialID); s != "" {
		b.CredentialID = s
	}
}

// bucketLocation is one nested location attribute and the providers that take it.
type bucketLocation struct {
	attr      string
	value     types.Object
	providers string
	example   func(bucketName string) string // the attribute written out for a bucket name
}

// bucketConfigProblems checks that exactly the nested attribute bucket_provider takes is
// set. Unknown values are checked again at apply time.
func bucketConfigProblems(provider types.String, s3, gcp, azure types.Object) []attrProblem {
	if !isSet(provider) {
		return nil
	}
	p := provider.ValueString()
	want := astra.BucketParametersKey(p)
	if want == "" {
		return nil // the OneOf validator reports it
	}
	locations := []bucketLocation{
		{"s3", s3, "ontap-s3, storagegrid-s3, generic-s3 and aws", func(b string) string {
			return fmt.Sprintf(`s3 = { server_url = "s3.example.com", bucket_name = %q }`, b)
		}},
		{"gcp", gcp, "gcp", func(b string) string { return fmt.Sprintf(`gcp = { bucket_name = %q }`, b) }},
		{"azure", azure, "azure", func(b string) string {
			return fmt.Sprintf(`azure = { storage_account = "myaccount", bucket_name = %q }`, b)
		}},
	}
	var problems []attrProblem
	var wanted bucketLocation
	for _, l := range locations {
		if l.attr == want {
			wanted = l
		}
	}
	for _, l := range locations {
		if l.attr == want || l.value.IsNull() {
			continue
		}
		// The example keeps the user's bucket name, when it is known.
		name := objectString(l.value, "bucket_name")
		if name == "" {
			name = "backups"
		}
		problems = append(problems, attrProblem{l.attr, "Bucket location does not match bucket_provider",
			fmt.Sprintf("bucket_provider is %q, which is located with %s; %s is for %s. Replace %s with %s, or set "+
				"bucket_provider to one of %s.", p, want, l.attr, l.providers, l.attr, wanted.example(name), l.providers)})
	}
	if len(problems) == 0 && wanted.value.IsNull() {
		problems = append(problems, attrProblem{want, "Missing " + want,
			fmt.Sprintf("bucket_provider %q needs %s to say where the bucket is, for example %s.", p, want, wanted.example("backups"))})
	}
	return problems
}
