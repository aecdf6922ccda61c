package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// TestCredentialResourcesHaveSpecs: each credential resource is built with its own spec,
// whose names match its type and schema (an empty spec would name no attribute).
func TestCredentialResourcesHaveSpecs(t *testing.T) {
	for _, tc := range []struct {
		new  func() resource.Resource
		spec func(resource.Resource) credentialPlanRules
	}{
		{newKubeconfigCredentialResource, func(r resource.Resource) credentialPlanRules {
			return r.(*kubeconfigCredentialResource).spec.rules
		}},
		{newS3CredentialResource, func(r resource.Resource) credentialPlanRules { return r.(*s3CredentialResource).spec.rules }},
		{newServiceAccountCredentialResource, func(r resource.Resource) credentialPlanRules {
			return r.(*serviceAccountCredentialResource).spec.rules
		}},
	} {
		r := tc.new()
		var meta resource.MetadataResponse
		r.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: "astra"}, &meta)
		var sch resource.SchemaResponse
		r.Schema(context.Background(), resource.SchemaRequest{}, &sch)
		rules := tc.spec(r)
		if rules.typeName != meta.TypeName {
			t.Errorf("%s: the spec names %q", meta.TypeName, rules.typeName)
		}
		for _, name := range append(append([]string{rules.secret.plain, rules.secret.wo, rules.secret.woVersion}, rules.requiredToCreate...), rules.sentWithSecret...) {
			if _, ok := sch.Schema.Attributes[name]; !ok {
				t.Errorf("%s: the spec names %q, which the schema does not have", meta.TypeName, name)
			}
		}
	}
}

// TestCredentialAnswerKeepsWhatStateReads: for random credentials (labels the service sets
// and others, members this client does not model), each kind's from converts answerOf's
// answer to the state it converts the whole credential to; and the labels the service adds
// once a cluster uses the credential (clusterID, clusterName) leave the answer, and so the
// read seal, as they were.
func TestCredentialAnswerKeepsWhatStateReads(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		full := randomCredential(rng)
		checkAnswerOf(t, round, kubeconfigCredentialSpec, full)
		checkAnswerOf(t, round, s3CredentialSpec, full)
		checkAnswerOf(t, round, serviceAccountCredentialSpec, full)
	}
}

func checkAnswerOf[M any](t *testing.T, round int, spec credentialSpec[M], full *astra.Credential) {
	t.Helper()
	r := newCredentialResource(spec)
	var prior M
	want, wantErr := spec.from(full, prior)
	got, gotErr := spec.from(r.answerOf(full), prior)
	if (wantErr == nil) != (gotErr == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("round %d, %s: from(answerOf(c)) = %+v, %v; from(c) = %+v, %v (c = %+v)", round, spec.kind.typeName, got, gotErr, want, wantErr, full)
	}
	used := *full
	used.Metadata.Labels = append(slices.Clone(full.Metadata.Labels),
		astra.Label{Name: astra.ReadOnlyLabelPrefix + "clusterID", Value: "c-" + full.ID},
		astra.Label{Name: astra.ReadOnlyLabelPrefix + "clusterName", Value: "n-" + full.ID})
	used.Extra = map[string]json.RawMessage{"somethingNew": json.RawMessage(`{"by":"the service"}`)}
	before, err1 := json.Marshal(r.answerOf(full))
	after, err2 := json.Marshal(r.answerOf(&used))
	if err1 != nil || err2 != nil || string(before) != string(after) {
		t.Fatalf("round %d, %s: the answer changed once a cluster used the credential: %s, then %s (%v, %v)", round, spec.kind.typeName, before, after, err1, err2)
	}
}

func randomCredential(rng *rand.Rand) *astra.Credential {
	pick := func(of ...string) string { return of[rng.IntN(len(of))] }
	c := &astra.Credential{
		ID: fmt.Sprintf("cred-%d", rng.IntN(1000)), Name: pick("a", "prod-east", ""),
		KeyType:  pick("", "kubeconfig", "s3", "generic", "Generic"),
		Metadata: astra.Metadata{CreationTimestamp: pick("", "2024-05-01T10:00:00Z"), ModifiedBy: pick("", "u-2")},
	}
	if rng.IntN(2) == 0 {
		c.Valid = astra.BoolPtr(rng.IntN(2) == 0)
	}
	for range rng.IntN(5) {
		c.Metadata.Labels = append(c.Metadata.Labels, astra.Label{
			Name:  pick(astra.LabelCredType, astra.LabelCloudName, astra.ReadOnlyLabelPrefix+"clusterID", "team"),
			Value: pick(astra.CredTypeServiceAccount, astra.KeyTypeKubeconfig, "GCP", "Azure", "private", "x"),
		})
	}
	if rng.IntN(3) == 0 {
		c.Extra = map[string]json.RawMessage{"other": json.RawMessage(`1`)}
	}
	return c
}
