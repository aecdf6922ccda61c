package tridentprotect

import (
	"fmt"
	"strings"
)

// The data source arguments a Problem can name: the renderer's input the caller supplies
// beside what Astra Control records.
const (
	ArgGCPProjectIDs  = "gcp_project_ids"
	ArgAzureEndpoints = "azure_endpoints"
)

// Problem is an object of the estate that cannot become a resource Trident protect's CRDs
// accept, and must not be left out quietly (a backup target or a hook would be missing).
type Problem struct {
	Object string // the Astra object, as a Warning names it
	// Argument is the data source argument that supplies what is missing, with Key (a
	// bucket ID) its map key; empty when the fix is in Astra Control.
	Argument string
	Key      string
	Message  string
}

func (p Problem) String() string { return p.Object + ": " + p.Message }

// InputError is a rendering refused because of its Problems: never a partial rendering
// with an object the API server would refuse.
type InputError struct{ Problems []Problem }

func (e *InputError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return "tridentprotect: " + strings.Join(lines, "; ")
}

type problems []Problem

func (p *problems) add(s Source, argument, key, format string, args ...any) {
	*p = append(*p, Problem{Object: describe(s), Argument: argument, Key: key, Message: fmt.Sprintf(format, args...)})
}
