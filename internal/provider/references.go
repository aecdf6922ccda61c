package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// A reference to another Astra Control object (a cloud_id, a credential_id) that is known at
// plan time is checked then, with one read (shared with the plan's other reads of the same
// collection): a well-formed ID of nothing is refused before the apply creates anything.
// Only a 404 refuses; any other failure leaves the check to the apply.

// reference is one ID argument and how to read what it names.
type reference struct {
	attribute, what, listedBy string
	get                       func(ctx context.Context, id string) error
}

// referenceProblems refuses each reference in refs whose planned value is known, differs
// from prior (unchecked values only: a quiet plan reads nothing) and names nothing.
func referenceProblems(ctx context.Context, refs []reference, planned, prior map[string]types.String) []attrProblem {
	var problems []attrProblem
	for _, ref := range refs {
		v := planned[ref.attribute]
		if !isSet(v) || v.Equal(prior[ref.attribute]) {
			continue
		}
		if err := ref.get(ctx, v.ValueString()); astra.IsNotFound(err) {
			problems = append(problems, attrProblem{attr: ref.attribute, summary: "No such " + ref.what,
				detail: fmt.Sprintf("%s %q names no %s of this Astra Control account (%s). Use the ID of an existing %s: %s list them.",
					ref.attribute, v.ValueString(), ref.what, shortProblem(err), ref.what, ref.listedBy)})
		}
	}
	return problems
}

// clusterReferenceProblems checks astra_cluster's cloud_id and credential_id.
func clusterReferenceProblems(ctx context.Context, client *astra.Client, cfg, prior clusterValues) []attrProblem {
	if client == nil {
		return nil
	}
	return referenceProblems(ctx, clusterReferences(client),
		map[string]types.String{"cloud_id": cfg.CloudID, "credential_id": cfg.CredentialID},
		map[string]types.String{"cloud_id": prior.CloudID, "credential_id": prior.CredentialID})
}

// clusterReferences are astra_cluster's references: its cloud and its credential.
func clusterReferences(client *astra.Client) []reference {
	return []reference{
		{attribute: "cloud_id", what: "cloud", listedBy: "the astra_clouds data source and `GET /topology/v1/clouds`",
			get: func(ctx context.Context, id string) error { _, err := client.GetCloud(ctx, id); return err }},
		{attribute: "credential_id", what: "credential", listedBy: "astra_kubeconfig_credential resources and `GET /core/v1/credentials`",
			get: func(ctx context.Context, id string) error { _, err := client.GetCredential(ctx, id); return err }},
	}
}

// shortProblem is an API error's status, title and problem number, without the path.
func shortProblem(err error) string {
	var e *astra.APIError
	if errors.As(err, &e) {
		s := fmt.Sprintf("%d %s", e.StatusCode, e.Title)
		if e.Problem != 0 {
			s += fmt.Sprintf(", problem %d", e.Problem)
		}
		return s
	}
	return err.Error()
}
