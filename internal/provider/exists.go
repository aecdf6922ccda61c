package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Problems of a create that Astra Control refused because the object exists already.
const (
	problemClusterExists    = 45  // the cloud holds a cluster of that name, or the same Kubernetes cluster
	problemKubeconfigExists = 44  // a credential already reaches the cluster this kubeconfig reaches
	problemBucketExists     = 57  // a bucket of the same provider, server and bucket name
	problemAppExists        = 121 // the cluster has an app of that name
	problemBackupExists     = 143 // the app has a backup of that name
	problemSnapshotExists   = 176 // the app has a snapshot of that name
)

// existing is the object a create was refused for, as one read found it.
type existing struct {
	what, id string // "the cluster \"prod\" (state running)", its ID
}

// addExists reports a create refused because the object exists: the existing object's ID
// and the import that adopts it, or, when no read told which it is, how to find it (hint).
// Terraform's resource name is unknown here: <name> stands for it.
func addExists(diags *diag.Diagnostics, summary, typeName string, found *existing, hint string, err error) {
	if found == nil {
		diags.AddError(summary, fmt.Sprintf("%s Find its ID (%s) and import it instead of creating it again: "+
			"`terraform import %s.<name> <id>`, or an import block `import { to = %s.<name>\n  id = \"<id>\" }`.\n\n%s",
			"Astra Control holds it already.", hint, typeName, typeName, err.Error()))
		return
	}
	diags.AddError(summary, fmt.Sprintf("Astra Control already holds %s, ID %s. To manage it with Terraform, import it "+
		"instead of creating it again:\n\n"+
		"  terraform import %s.<name> %s\n\n"+
		"or, in the configuration (Terraform 1.5 or later, OpenTofu 1.6 or later):\n\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
		"where <name> is this resource's name.\n\n%s",
		found.what, found.id, typeName, found.id, typeName, found.id, err.Error()))
}
