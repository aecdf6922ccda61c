package provider

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
	"github.com/astra-control/terraform-provider-astra/internal/testutil"
)

// No lost update: every update is the object's own GET, the planned change applied to that
// fresh copy, and a PUT with If-Match (astra.UpdateConditionally). Each row is one resource
// updated in place three times: once plainly (one conditional PUT), once while another
// client writes the object between the GET and the PUT (the simulator's concurrent-write
// fault: a 412, then a fresh read and a second PUT; both changes are kept), and once while
// the writer never stops (the apply fails naming the object; nothing is overwritten).

// lostUpdateRow is one resource under the test. A new resource is one more row.
type lostUpdateRow struct {
	name  string
	addr  string
	route string // the PUT route of its update
	// hcl is the configuration in variant v (0, 1, 2): one argument differs, updated in place.
	hcl func(a *accTarget, v int) string
	// want is variant v's value of that argument as the service reports it.
	want func(v int) string
	// read reads the object id: that argument's value, and the field the concurrent writer
	// changes (concurrent.go), which the configuration does not set.
	read func(a *accTarget, id string) (planned, writer string, err error)
	// drifts: the writer's field is one the configuration owns although it leaves it unset
	// (an app's labels: none). The update keeps the writer's change (it did not plan to change
	// labels); the next plan shows it as drift and removes it, where the user sees it.
	drifts bool
}

// writerLabel reads the label the concurrent writer sets on clouds and credentials.
func writerLabel(labels []astra.Label) string { return astraLabel(labels, "concurrent-writer") }

func lostUpdateRows() []lostUpdateRow {
	// The cloud's variants: no default bucket, then two buckets made outside Terraform (a
	// default bucket must exist: problem 108), created on the first configuration.
	buckets := []string{""}
	cloudBuckets := func(a *accTarget) {
		if len(buckets) == 1 {
			buckets = append(buckets, a.bucket("nlu-first"), a.bucket("nlu-second"))
		}
	}
	trident := []string{"managed", "unmanaged", "managed"}
	var bucketKey string // the bucket row's s3 credential, made outside Terraform
	// The app and policy rows run on a managed cluster of their own, whose credential (and,
	// for the policy, two buckets the concurrent writer moves the backups between) are made
	// outside Terraform on the first configuration.
	protected := map[string]string{}
	protectedBase := func(a *accTarget, row string) string {
		if protected[row] == "" {
			protected[row] = a.kubeconfigCredential("nlu-"+row, "nlu-"+row)
			if row == "policy" {
				a.bucket("nlu-policy-first")
				a.bucket("nlu-policy-second")
			}
		}
		return privateManagedHCL(a.cloudID(), protected[row], `local.storage_classes["ontap-gold"]`, true)
	}
	variant := func(prefix string) func(int) string {
		return func(v int) string { return fmt.Sprintf("%sv%d", prefix, v) }
	}
	return []lostUpdateRow{
		{
			name: "cluster", addr: clusterAddr, route: routeCloudCluster, want: variant(""),
			hcl: func(a *accTarget, v int) string {
				return credentialHCL("nlu-cluster", writeKubeconfig(a.t, "nlu-cluster", "https://nlu-cluster.k8s.example:6443")) +
					clusterHCL(a.cloudID(), arg("credential_id", "${astra_kubeconfig_credential.test.id}"),
						fmt.Sprintf("labels = { tier = \"v%d\" }", v))
			},
			read: func(a *accTarget, id string) (string, string, error) {
				c, err := a.client.GetCluster(testContext(), "", id)
				if err != nil {
					return "", "", err
				}
				return astraLabel(c.Metadata.Labels, "tier"), c.TridentManagedStateDesired, nil
			},
		},
		{
			name: "managed cluster", addr: managedAddr, route: routeManagedCluster,
			want: func(v int) string { return trident[v] },
			hcl: func(a *accTarget, v int) string {
				return credentialHCL("nlu-managed", writeKubeconfig(a.t, "nlu-managed", "https://nlu-managed.k8s.example:6443")) +
					clusterHCL(a.cloudID(), arg("credential_id", "${astra_kubeconfig_credential.test.id}")) +
					fmt.Sprintf("resource \"astra_managed_cluster\" \"test\" {\n  cluster_id = astra_cluster.test.id\n  trident_managed_state_desired = %q\n}\n", trident[v])
			},
			read: func(a *accTarget, id string) (string, string, error) {
				m, err := a.client.GetManagedCluster(testContext(), id)
				if err != nil {
					return "", "", err
				}
				return m.TridentManagedStateDesired, m.DefaultStorageClass, nil
			},
		},
		{
			name: "cloud", addr: cloudAddr, route: routeCloud, want: func(v int) string { return buckets[v] },
			hcl: func(a *accTarget, v int) string {
				cloudBuckets(a)
				extra := []string{arg("credential_id", a.sim.Seeds().GCP.CredentialID)}
				if buckets[v] != "" {
					extra = append(extra, arg("default_bucket_id", buckets[v]))
				}
				return cloudHCL("nlu-gcp", "GCP", extra...)
			},
			read: func(a *accTarget, id string) (string, string, error) {
				c, err := a.client.GetCloud(testContext(), id)
				if err != nil {
					return "", "", err
				}
				return c.DefaultBucketID, writerLabel(c.Metadata.Labels), nil
			},
		},
		{
			name: "kubeconfig credential", addr: credentialAddr, route: routeCredential, want: variant("nlu-cred-"),
			hcl: func(a *accTarget, v int) string {
				return credentialHCL(fmt.Sprintf("nlu-cred-v%d", v), writeKubeconfig(a.t, "nlu-cred", "https://nlu-cred.k8s.example:6443"))
			},
			read: func(a *accTarget, id string) (string, string, error) {
				c, err := a.client.GetCredential(testContext(), id)
				if err != nil {
					return "", "", err
				}
				return c.Name, writerLabel(c.Metadata.Labels), nil
			},
		},

		{
			name: "s3 credential", addr: s3CredentialAddr, route: routeCredential, want: variant("nlu-s3-"),
			hcl: func(_ *accTarget, v int) string {
				return s3CredentialHCL(fmt.Sprintf("nlu-s3-v%d", v), "AKIA-NLU", "nlu-secret")
			},
			read: readCredentialName,
		},
		{
			name: "service-account credential", addr: serviceAccountCredentialAddr, route: routeCredential, want: variant("nlu-sa-"),
			hcl: func(_ *accTarget, v int) string {
				return serviceAccountCredentialHCL(fmt.Sprintf("nlu-sa-v%d", v), "gcp", testutil.GCPKeyFile(1))
			},
			read: readCredentialName,
		},
		{
			// The writer labels the app; the configuration sets no labels, and a rename keeps them.
			name: "app", addr: appAddr, route: routeApp, want: variant("nlu-app-"), drifts: true,
			hcl: func(a *accTarget, v int) string {
				return protectedBase(a, "app") + appHCL(fmt.Sprintf("nlu-app-v%d", v), "default")
			},
			read: func(a *accTarget, id string) (string, string, error) {
				app, err := a.client.GetApp(testContext(), id)
				if err != nil {
					return "", "", err
				}
				return app.Name, writerLabel(app.Metadata.Labels), nil
			},
		},
		{
			// The writer labels the schedule and moves its backups to another bucket; the
			// configuration sets neither (bucket_id left to the service), and a change of
			// retention keeps both.
			name: "protection policy", addr: policyAddr, route: routeSchedule, want: func(v int) string { return fmt.Sprint(v + 1) },
			hcl: func(a *accTarget, v int) string {
				return protectedBase(a, "policy") + appHCL(a.name("nlu-policy-app"), "default") + fmt.Sprintf(`
resource "astra_protection_policy" "test" {
  app_id             = astra_app.test.id
  name               = "nlu-policy"
  granularity        = "hourly"
  snapshot_retention = %d
  backup_retention   = 1
}
`, v+1)
			},
			read: func(a *accTarget, id string) (string, string, error) {
				apps, err := a.client.ListApps(testContext(), astra.ListOptions{Filters: []astra.Filter{astra.Eq("name", a.name("nlu-policy-app"))}})
				if err != nil {
					return "", "", fmt.Errorf("the policy's app: %w", err)
				}
				if len(apps) != 1 {
					return "", "", fmt.Errorf("the policy's app: %d found, want 1", len(apps))
				}
				s, err := a.client.GetAppSchedule(testContext(), apps[0].ID, id)
				if err != nil {
					return "", "", err
				}
				return s.SnapshotRetention, s.BucketID + "|" + writerLabel(s.Metadata.Labels), nil
			},
		},
		{
			name: "bucket", addr: bucketAddr, route: routeBucket, want: variant("nlu-bucket-"),
			hcl: func(a *accTarget, v int) string {
				if bucketKey == "" {
					bucketKey = a.s3Credential("nlu-bucket-key")
				}
				return bucketHCL(fmt.Sprintf("nlu-bucket-v%d", v), bucketKey, "nlu-backups")
			},
			read: func(a *accTarget, id string) (string, string, error) {
				b, err := a.client.GetBucket(testContext(), id)
				if err != nil {
					return "", "", err
				}
				return b.Name, writerLabel(b.Metadata.Labels), nil
			},
		},
		{
			// The script changes: the writer's label stays on the source.
			name: "hook source", addr: hookSourceAddr, route: routeHookSource,
			want: func(v int) string { return fmt.Sprintf("#!/bin/sh\necho v%d\n", v) },
			hcl: func(a *accTarget, v int) string {
				return hookSourceHCL(a.name("nlu-script"), "source", fmt.Sprintf("%q", fmt.Sprintf("#!/bin/sh\necho v%d\n", v)))
			},
			read: func(a *accTarget, id string) (string, string, error) {
				h, err := a.client.GetHookSource(testContext(), id)
				if err != nil {
					return "", "", err
				}
				script, err := h.Script()
				return script, writerLabel(h.Metadata.Labels), err
			},
		},
		{
			// The hook's argument changes; it runs on the app's containers of a managed cluster
			// of its own.
			name: "execution hook", addr: "astra_execution_hook.test", route: routeExecutionHook, want: variant("--"),
			hcl: func(a *accTarget, v int) string {
				return protectedBase(a, "hook") + appHCL(a.name("nlu-hook-app"), "default") +
					hookSourceHCL(a.name("nlu-hook-script"), "source", `"#!/bin/sh\necho ok\n"`) + fmt.Sprintf(`
resource "astra_execution_hook" "test" {
  name           = %q
  app_id         = astra_app.test.id
  hook_source_id = astra_hook_source.test.id
  action         = "backup"
  stage          = "pre"
  arguments      = ["--v%d"]
}
`, a.name("nlu-hook"), v)
			},
			read: func(a *accTarget, id string) (string, string, error) {
				h, err := a.client.GetExecutionHook(testContext(), id)
				if err != nil {
					return "", "", err
				}
				if len(h.Arguments) != 1 {
					return "", "", fmt.Errorf("the hook has arguments %q, want one", h.Arguments)
				}
				return h.Arguments[0], writerLabel(h.Metadata.Labels), nil
			},
		},
	}
}

// readCredentialName reads a credential's name and the concurrent writer's label.
func readCredentialName(a *accTarget, id string) (string, string, error) {
	c, err := a.client.GetCredential(testContext(), id)
	if err != nil {
		return "", "", err
	}
	return c.Name, writerLabel(c.Metadata.Labels), nil
}

func astraLabel(labels []astra.Label, name string) string {
	for _, l := range labels {
		if l.Name == name {
			return l.Value
		}
	}
	return ""
}

// TestAccNoLostUpdate runs lostUpdateRows.
func TestAccNoLostUpdate(t *testing.T) {
	for _, row := range lostUpdateRows() {
		t.Run(row.name, func(t *testing.T) {
			a := newAccTarget(t)
			a.requireSim("the concurrent-write fault")
			runLostUpdateRow(a, row)
		})
	}
}

// afterTheWriter is the step after the concurrent write: an empty plan, or for a row whose
// writer's change drifts, an update that removes it.
func afterTheWriter(a *accTarget, row lostUpdateRow) resource.TestStep {
	step := resource.TestStep{Config: a.config(row.hcl(a, 2)), ConfigPlanChecks: emptyPlan()}
	if row.drifts {
		step.ConfigPlanChecks = planned(row.addr, plancheck.ResourceActionUpdate)
	}
	return step
}

func runLostUpdateRow(a *accTarget, row lostUpdateRow) {
	var id, writerBefore string
	var puts, conditional int
	mark := func() {
		puts, conditional = a.sim.Count(http.MethodPut, row.route), a.sim.CountConditional(http.MethodPut, row.route)
	}
	// putsSince checks the PUTs of the step: want of them, every one with If-Match.
	putsSince := func(want int) resource.TestCheckFunc {
		return a.simCheck("conditional PUTs", func(sim *astrasim.Sim) error {
			n, c := sim.Count(http.MethodPut, row.route)-puts, sim.CountConditional(http.MethodPut, row.route)-conditional
			if n != want || c != want {
				return fmt.Errorf("PUT %s: %d requests, %d with If-Match; want %d, all with If-Match", row.route, n, c, want)
			}
			return nil
		})
	}
	holds := func(v int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got, _, err := row.read(a, id)
			if err == nil && got != row.want(v) {
				err = fmt.Errorf("%s holds %q, want %q (variant %d)", row.name, got, row.want(v), v)
			}
			return err
		}
	}
	fault := func(times int) func() {
		return func() {
			a.sim.ClearFaults()
			a.sim.AddFault(astrasim.Fault{Method: http.MethodPut, Route: row.route, Kind: astrasim.FaultConcurrentWrite, Times: times})
			mark()
			var err error
			if _, writerBefore, err = row.read(a, id); err != nil {
				a.t.Fatal(err)
			}
		}
	}
	fired := func(want int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			if n := a.sim.Fired(http.MethodPut, row.route, astrasim.FaultConcurrentWrite); n != want {
				return fmt.Errorf("the concurrent writer fired %d times, want %d", n, want)
			}
			return nil
		}
	}
	// writerKept checks the concurrent writer's change is still on the object after the apply.
	writerKept := func(*terraform.State) error {
		_, now, err := row.read(a, id)
		if err == nil && now == writerBefore {
			err = fmt.Errorf("the concurrent writer's change is lost: the field it set is back to %q", now)
		}
		return err
	}
	a.test(resource.TestCase{
		Steps: []resource.TestStep{
			{Config: a.config(row.hcl(a, 0)), Check: resource.ComposeAggregateTestCheckFunc(recordID(row.addr, &id))},
			{
				// A plain update: one PUT, conditional on the GET it was built from.
				PreConfig:        mark,
				Config:           a.config(row.hcl(a, 1)),
				ConfigPlanChecks: planned(row.addr, plancheck.ResourceActionUpdate),
				Check:            resource.ComposeAggregateTestCheckFunc(putsSince(1), holds(1)),
			},
			{
				// Another client writes between the GET and the PUT: a 412, a fresh GET, the
				// planned change applied again, a second PUT. Both changes are on the object.
				PreConfig:          fault(1),
				Config:             a.config(row.hcl(a, 2)),
				ConfigPlanChecks:   planned(row.addr, plancheck.ResourceActionUpdate),
				Check:              resource.ComposeAggregateTestCheckFunc(fired(1), putsSince(2), holds(2), writerKept),
				ExpectNonEmptyPlan: row.drifts,
			},
			afterTheWriter(a, row),
			{
				// The writer never stops: the apply gives up, naming the object; nothing it
				// wrote is overwritten.
				PreConfig:   fault(0),
				Config:      a.config(row.hcl(a, 1)),
				ExpectError: errorPhrases("changed during the apply", "3 times in a row", "nothing was overwritten", "The next plan shows the difference"),
			},
			{
				PreConfig: func() {
					if err := fired(astra.MaxUpdateAttempts)(nil); err != nil {
						a.t.Fatal(err)
					}
					if err := putsSince(astra.MaxUpdateAttempts)(nil); err != nil {
						a.t.Fatal(err)
					}
					// Every PUT lost (412): the object still holds variant 2, not this step's 1.
					if err := holds(2)(nil); err != nil {
						a.t.Fatal(err)
					}
					a.sim.ClearFaults()
				},
				Config:           a.config(row.hcl(a, 1)),
				ConfigPlanChecks: planned(row.addr, plancheck.ResourceActionUpdate),
				Check:            holds(1),
			},
		},
	})
}
