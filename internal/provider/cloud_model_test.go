package provider

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

const testBucketID = "3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d"

func TestCloudTypeValue(t *testing.T) {
	tests := []struct {
		answer string
		prior  types.String
		want   string
	}{
		{"GCP", types.StringValue("gcp"), "gcp"},   // the user's casing is kept
		{"gcp", types.StringValue("GCP"), "GCP"},   // either way round
		{"Azure", types.StringNull(), "azure"},     // import: the schema's spelling
		{"AWS", types.StringUnknown(), "aws"},      // create without a known plan value
		{"GCP", types.StringValue("azure"), "gcp"}, // a real change shows
		{"private", types.StringNull(), "private"}, // unchanged
		{"oracle", types.StringNull(), "oracle"},   // unknown types pass through
	}
	for _, tt := range tests {
		if got := cloudTypeValue(tt.answer, tt.prior).ValueString(); got != tt.want {
			t.Errorf("cloudTypeValue(%q, %v) = %q, want %q", tt.answer, tt.prior, got, tt.want)
		}
	}
}

func TestCloudFrom(t *testing.T) {
	m := cloudFrom(&astra.Cloud{
		ID: testCloudID, Name: "GCP", CloudType: "GCP", CredentialID: testCredentialID, State: "discovering",
		StateUnready: []string{"listing clusters"}, Metadata: astra.Metadata{CreatedBy: "system"},
	}, cloudValues{CloudType: types.StringValue("gcp")})
	if m.ID.ValueString() != testCloudID || m.Name.ValueString() != "GCP" || m.CloudType.ValueString() != "gcp" ||
		m.CredentialID.ValueString() != testCredentialID || !m.DefaultBucketID.IsNull() || m.State.ValueString() != "discovering" {
		t.Fatalf("cloudFrom = %+v", m)
	}
	if len(m.StateUnready.Elements()) != 1 {
		t.Errorf("state_unready = %v", m.StateUnready)
	}
}

func TestCloudRequests(t *testing.T) {
	plan := cloudValues{
		Name: types.StringValue("gcp-prod"), CloudType: types.StringValue("GCP"),
		CredentialID: types.StringValue(testCredentialID), DefaultBucketID: types.StringUnknown(),
	}
	want := astra.CloudCreate{Name: "gcp-prod", CloudType: "GCP", CredentialID: testCredentialID}
	if got := cloudCreateRequest(plan); !reflect.DeepEqual(got, want) {
		t.Fatalf("cloudCreateRequest = %+v, want %+v", got, want)
	}

	current := &astra.Cloud{ID: testCloudID, Name: "gcp-prod", CloudType: "GCP", CredentialID: "old", DefaultBucketID: "kept"}
	applyCloudPlan(current, plan)
	if current.CredentialID != testCredentialID || current.DefaultBucketID != "kept" || current.Name != "gcp-prod" {
		t.Fatalf("applyCloudPlan = %+v: only the planned in-place arguments may change", current)
	}
}

func TestCloudNeedsPut(t *testing.T) {
	prior := cloudValues{CredentialID: types.StringValue(testCredentialID), DefaultBucketID: types.StringNull()}
	tests := []struct {
		name       string
		credential types.String
		bucket     types.String
		want       bool
	}{
		{"nothing changed", types.StringValue(testCredentialID), types.StringNull(), false},
		{"unset arguments keep the service's values", types.StringUnknown(), types.StringUnknown(), false},
		{"new credential", types.StringValue("other"), types.StringNull(), true},
		{"new bucket", types.StringValue(testCredentialID), types.StringValue(testBucketID), true},
	}
	for _, tt := range tests {
		plan := cloudValues{CredentialID: tt.credential, DefaultBucketID: tt.bucket}
		if got := cloudNeedsPut(plan, prior); got != tt.want {
			t.Errorf("%s: cloudNeedsPut = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCloudRunning(t *testing.T) {
	for state, want := range map[string]bool{"running": true, "Running": true, "pending": false, "discovering": false} {
		if done, err := cloudRunning(&astra.Cloud{State: state}); done != want || err != nil {
			t.Errorf("cloudRunning(%s) = %v, %v", state, done, err)
		}
	}
	_, err := cloudRunning(&astra.Cloud{ID: testCloudID, State: "failed", StateUnready: []string{"credential rejected"}})
	var terminal *astra.TerminalStateError
	if !errors.As(err, &terminal) || err.Error() != "cloud "+testCloudID+" is failed: credential rejected" {
		t.Fatalf("cloudRunning(failed) = %v", err)
	}
}

func TestCloudTypeChangedReplacesOnlyRealChanges(t *testing.T) {
	for _, tt := range []struct {
		state, plan string
		want        bool
	}{{"gcp", "GCP", false}, {"gcp", "gcp", false}, {"gcp", "aws", true}} {
		resp := &stringplanmodifier.RequiresReplaceIfFuncResponse{}
		cloudTypeChanged(context.Background(), planmodifier.StringRequest{
			StateValue: types.StringValue(tt.state), PlanValue: types.StringValue(tt.plan),
		}, resp)
		if resp.RequiresReplace != tt.want {
			t.Errorf("%s -> %s: RequiresReplace = %v, want %v", tt.state, tt.plan, resp.RequiresReplace, tt.want)
		}
	}
}

func TestCloudNamesAndTypeFilter(t *testing.T) {
	clouds := []astra.Cloud{{ID: "1", Name: "private", CloudType: "private"}, {ID: "2", Name: "GCP", CloudType: "GCP"}}
	if got := namesAndIDs(clouds, cloudNameID); got != "GCP (2), private (1)" {
		t.Errorf("cloudNames = %q", got)
	}
	if got := namesAndIDs(nil, cloudNameID); got != "none" {
		t.Errorf("namesAndIDs(nil, cloudNameID) = %q", got)
	}
	if !cloudTypeMatches(types.StringValue("gcp"), clouds[1]) || cloudTypeMatches(types.StringValue("gcp"), clouds[0]) ||
		!cloudTypeMatches(types.StringNull(), clouds[0]) {
		t.Error("cloud_type must match case-insensitively, and null must match everything")
	}
	if !isPublicCloudType("Azure") || isPublicCloudType("PRIVATE") || isPublicCloudType("") {
		t.Error("isPublicCloudType")
	}
}
