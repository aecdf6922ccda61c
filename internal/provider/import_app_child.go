package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// appChildGetter reads the object an import of "<app_id>/<id>" names.
type appChildGetter func(ctx context.Context, client *astra.Client, appID, id string) error

// checkAppChildImport says which part of an import ID "<app_id>/<id>" names nothing: the
// read after import would only find the object gone, and Terraform then reports a
// "non-existent remote object" without saying whether the app or its snapshot, backup or
// policy is missing. Errors other than a 404 are left to that read, which reports them.
func checkAppChildImport(ctx context.Context, client *astra.Client, typeName, what, appID, id string, get appChildGetter, diags *diag.Diagnostics) {
	if client == nil {
		return
	}
	app, err := client.GetApp(ctx, appID)
	if astra.IsNotFound(err) {
		diags.AddError("Cannot import: the app does not exist",
			fmt.Sprintf("Astra Control manages no app %s, the first part of the import ID of this %s (\"<app_id>/<id>\"). "+
				"Check the app's ID: the astra_apps data source lists them. An app that was unmanaged takes its %ss "+
				"with it, or leaves them unreachable through the API.", appID, typeName, what))
		return
	}
	if err != nil {
		return
	}
	if err := get(ctx, client, appID, id); astra.IsNotFound(err) {
		diags.AddError("Cannot import: the app has no such "+what,
			fmt.Sprintf("App %q (%s) has no %s %s, the second part of the import ID of this %s (\"<app_id>/<id>\"). "+
				"Check the %s's ID, and that it belongs to this app.", app.Name, appID, what, id, typeName, what))
	}
}
