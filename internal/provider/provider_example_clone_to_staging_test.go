package provider

import (
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// TestAccExampleCloneToStaging applies examples/clone-to-staging as it ships: production (an
// app in namespace default on the simulator's GKE cluster, managed beforehand) has a failed
// backup newer than its completed one; the example clones the completed one into namespace
// staging (one clone POST naming that backup, never the failed one), staging is ready and
// records its source; a second plan is empty; without a completed backup the plan stops
// with the example's own message; and once production is unmanaged, staging plans nothing
// and is destroyed without it.
func TestAccExampleCloneToStaging(t *testing.T) {
	a := newAccTarget(t)
	a.requireSim("manages a seeded cluster and fails a backup on demand")
	gke := a.sim.Seeds().GCP.ClusterID
	if _, err := a.client.CreateManagedCluster(testContext(), astra.ManagedClusterCreate{ID: gke}); err != nil {
		t.Fatalf("managing the GKE cluster: %v", err)
	}
	bucket := a.bucket("clone-backups")
	production := a.readyApp(gke, a.name("production"))
	vars := config.Variables{"source_app_id": config.StringVariable(production), "staging_cluster_id": config.StringVariable(gke),
		"staging_app_name": config.StringVariable(a.name("staging"))}
	hcl := a.exampleHCL("clone-to-staging")

	// No completed backup yet: the data source's postcondition says what to do.
	a.test(resource.TestCase{Steps: []resource.TestStep{{
		Config: hcl, ConfigVariables: vars, PlanOnly: true,
		ExpectError: errorPhrases("no completed backup to clone staging from", "take one first"),
	}}})

	good := a.backupOf(production, a.name("nightly"), bucket, "")
	failed := a.backupOf(production, a.name("broken"), bucket, "the bucket refused the write")
	if failed.State != "failed" {
		t.Fatalf("the second backup is %s, want failed", failed.State)
	}
	var counts countDelta
	a.markCounts(&counts)
	a.test(resource.TestCase{
		CheckDestroy: a.checkAppsDestroyed,
		Steps: []resource.TestStep{
			{
				Config: hcl, ConfigVariables: vars,
				ConfigStateChecks: []statecheck.StateCheck{
					expectString("astra_app.staging", "state", "ready"),
					statecheck.ExpectKnownValue("astra_app.staging", tfjsonpath.New("source").AtMapKey("backup_id"), knownvalue.StringExact(good.ID)),
					expectString("astra_app.staging", "source_app_id", production),
					statecheck.ExpectKnownOutputValueAtPath("staging", tfjsonpath.New("from_backup_id"), knownvalue.StringExact(good.ID)),
					statecheck.ExpectKnownOutputValueAtPath("staging", tfjsonpath.New("namespaces"), listContaining{"staging"}),
				},
				Check: a.simCheck("one clone POST", func(sim *astrasim.Sim) error {
					return expectCount(counts.since(sim, "POST "+routeApps), 1)
				}),
			},
			{Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan()},
			{
				// Production is unmanaged: staging still plans nothing, and the test's
				// destroy (CheckDestroy) goes through without it (issue 44: "Unknown app").
				PreConfig: func() {
					if err := a.client.DeleteApp(testContext(), production); err != nil {
						t.Fatal(err)
					}
					if _, err := astra.Wait(testContext(), a.waitSchedule(), func(ctx context.Context) (bool, error) {
						_, err := a.client.GetApp(ctx, production)
						return astra.IsNotFound(err), nil
					}, func(gone bool) (bool, error) { return gone, nil }); err != nil {
						t.Fatal(err)
					}
				},
				Config: hcl, ConfigVariables: vars, ConfigPlanChecks: emptyPlan(),
			},
		},
	})
}

// readyApp is an app of the managed cluster on namespace default, created with the client
// and waited for until ready; unmanaged (with its backups) when the test ends.
func (a *accTarget) readyApp(clusterID, name string) string {
	a.t.Helper()
	app, err := a.client.CreateApp(testContext(), astra.AppCreate{Name: name, ClusterID: clusterID,
		NamespaceScopedResources: []astra.NamespaceScope{{Namespace: "default"}}})
	if err != nil {
		a.t.Fatalf("creating app %s: %v", name, err)
	}
	a.t.Cleanup(func() {
		if err := a.client.DeleteApp(context.Background(), app.ID); err != nil && !astra.IsNotFound(err) {
			a.t.Errorf("unmanaging app %s: %v", app.ID, err)
		}
	})
	ctx, cancel := context.WithTimeout(testContext(), time.Minute)
	defer cancel()
	if _, err := astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.App, error) {
		return a.client.GetApp(ctx, app.ID)
	}, astra.AppReady); err != nil {
		a.t.Fatalf("app %s never ready: %v", name, err)
	}
	return app.ID
}

// backupOf takes a backup of app into bucket and waits until it is done; failWith, when
// set, makes the simulator fail it with that reason.
func (a *accTarget) backupOf(app, name, bucket, failWith string) *astra.AppBackup {
	a.t.Helper()
	if failWith != "" {
		if err := a.sim.FailNextBackup(app, failWith); err != nil {
			a.t.Fatal(err)
		}
	}
	b, err := a.client.CreateAppBackup(testContext(), app, astra.AppBackupCreate{Name: name, BucketID: bucket})
	if err != nil {
		a.t.Fatalf("backing up %s: %v", app, err)
	}
	ctx, cancel := context.WithTimeout(testContext(), time.Minute)
	defer cancel()
	done, err := astra.Wait(ctx, a.waitSchedule(), func(ctx context.Context) (*astra.AppBackup, error) {
		return a.client.GetAppBackup(ctx, app, b.ID)
	}, func(b *astra.AppBackup) (bool, error) { return b.State == "completed" || b.State == "failed", nil })
	if err != nil {
		a.t.Fatalf("backup %s never done: %v", name, err)
	}
	return done
}
