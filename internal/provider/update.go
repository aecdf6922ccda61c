package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// updateFromFreshCopy is the write of every resource's update: astra.UpdateConditionally
// (the object's own GET, the planned change applied by apply to that fresh copy, one PUT,
// conditional when the service allows it, then the object read back), the client's
// warnings added as diagnostics, and a failure explained under what ("cluster", "app",
// ...). apply may be nil when put builds its body from the fresh copy. It returns nil
// exactly when it added an error.
func updateFromFreshCopy[T any](ctx context.Context, diags *diag.Diagnostics, client *astra.Client, what, id string,
	fields map[string]string, get func(context.Context) (*T, error), apply func(*T),
	put func(context.Context, *T) (*T, error)) *T {
	ctx, notes := astra.WithNotes(ctx)
	updated, err := astra.UpdateConditionally(ctx, client, what+" "+id, get, apply, put)
	for _, w := range notes.Warnings() {
		diags.AddWarning("The "+what+" was updated without a condition", w)
	}
	if err != nil {
		addUpdateError(diags, what, err, fields)
		return nil
	}
	return updated
}
