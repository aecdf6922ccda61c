package provider

import (
	"fmt"
	"strings"
)

// The cluster API versions the provider's api_version sends, the Astra Control release
// that first speaks each, and the arguments that need it: what a version error says, so a
// user who meets one knows which feature asks for which release and how to reach it.

// releaseOfClusterVersion is the release that publishes each cluster API version
// (docs/guides/stability.md); 1.0 to 1.2 were never published and are held to 1.3.
var releaseOfClusterVersion = map[string]string{
	"1.3": "22.11", "1.4": "23.05", "1.5": "23.07 (Astra Control Service)", "1.6": "23.10", "1.7": "24.02 (Astra Control Center)",
}

// argumentsNeeding lists, for each version, what this provider sends only from it on.
var argumentsNeeding = map[string][]string{
	"1.4": {"astra_cluster.private_route_id", "astra_app.source.storage_class_mapping"},
	"1.5": {"astra_cluster.connector_capabilities", "an astra_cluster without credential_id"},
	"1.7": {"astra_managed_cluster.default_bucket_id", "astra_cluster.cluster_type", "the connectorV2 capability"},
}

// reachVersion says where cluster API version v is spoken and how to reach it, the
// simulator included.
func reachVersion(v string) string {
	release, ok := releaseOfClusterVersion[v]
	if !ok {
		return ""
	}
	sim := strings.Fields(release)[0]
	return fmt.Sprintf("Cluster API version %s is Astra Control %s and later: point the provider (endpoint) at such a "+
		"service; with the simulator, `astra-sim -release %s` (`make sim` serves 24.02).", v, release, sim)
}

// needsBeyond lists what of argumentsNeeding needs a version above served.
func needsBeyond(served string) []string {
	var out []string
	for _, v := range []string{"1.4", "1.5", "1.7"} {
		if !versionAtLeast(served, v) {
			for _, a := range argumentsNeeding[v] {
				out = append(out, a+" ("+v+")")
			}
		}
	}
	return out
}
