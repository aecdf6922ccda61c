package provider

import (
	"fmt"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// lacksRole explains a 403 on a write by the role it needs (astra.RoleNeeded): the token's
// user lacks it, or has it only for other namespaces.
func lacksRole(e *astra.APIError, role string) string {
	var weaker []string
	for _, r := range astra.Roles {
		if r == role {
			break
		}
		weaker = append(weaker, r)
	}
	return fmt.Sprintf("Astra Control refused this request (403): %s %s needs the %q role (or a more privileged one), which "+
		"the user of the provider's API token (api_token or ASTRA_API_TOKEN) lacks here: a user with the %s role may not do "+
		"it, and a binding limited to some namespaces (role constraints) covers only objects in those namespaces. Have "+
		"an admin or the owner bind that user to the %q role (an astra_role_binding) in this account, or use the token "+
		"of a user who has it.\n\n%s", e.Method, strings.TrimSpace(e.Path), role, strings.Join(quoted(weaker), " or "), role, e.Error())
}

func quoted(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}
