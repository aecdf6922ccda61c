package main

import (
	"flag"
	"fmt"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// Replication flags (issue 46): kept apart from parseFlags so the areas merge cleanly.

const usageReplication = `
Replication (AppMirror; issue 46): -delay mirror=D (establishing -> established, for a
create, a resync or a reverse), failover=D (failingOver -> failedOver) and transfer=D (one
replicated snapshot: transferring -> idle). Every managed cluster has an ONTAP storage
backend unless named by -non-ontap-cluster. A schedule with replicate "true" on a
relationship's source app replicates a snapshot at each firing (-schedule-speed applies).
-fail-next-transfer APP[=REASON] makes the next transfer of APP's relationship fail;
-fail-transfers APP makes every one fail (transferState stays "transferring", healthState
"critical"). A cluster the simulator cannot reach (its kubeconfig's server under
".invalid") holds back establishing and transfers, never a failover away from it.
`

// replicationFlags registers the replication flags on fs; the function it returns applies
// them to cfg after parsing.
func replicationFlags(fs *flag.FlagSet, cfg *config) func() error {
	var nonONTAP, failTransfers, failNextTransfer listFlag
	fs.Var(&nonONTAP, "non-ontap-cluster", "a cluster `name` (or ID) whose storage is not ONTAP: it has no storage backend and cannot replicate; repeatable")
	fs.Var(&failTransfers, "fail-transfers", "an app `name` (or ID) every snapshot transfer of whose replication relationship fails; repeatable")
	fs.Var(&failNextTransfer, "fail-next-transfer", "make the next snapshot transfer of an app's replication relationship fail, `APP[=REASON]`; repeatable")
	fs.BoolVar(&cfg.opts.MirrorDeleteRemovesDestination, "mirror-delete-removes-destination", false,
		"deleting a replication relationship that is not failed over also removes the destination app, as the spec's AppMirror text says; the default is the conservative reading (Astra Control Center's docs): both apps stay managed")
	return func() error {
		for _, flagVals := range []struct {
			name string
			vals listFlag
			dst  *[]string
		}{{"-non-ontap-cluster", nonONTAP, &cfg.opts.NonONTAPClusters}, {"-fail-transfers", failTransfers, &cfg.opts.FailTransfers}} {
			for _, v := range flagVals.vals {
				if v == "" {
					return fmt.Errorf("%s: the name must not be empty", flagVals.name)
				}
				*flagVals.dst = append(*flagVals.dst, v)
			}
		}
		for _, spec := range failNextTransfer {
			fn, err := astrasim.ParseFailNext(astrasim.FailTransfer, spec)
			if err != nil {
				return fmt.Errorf("-fail-next-transfer %q: %w", spec, err)
			}
			cfg.opts.FailNext = append(cfg.opts.FailNext, fn)
		}
		return nil
	}
}
