package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// start serves a simulator and returns a client for it with millisecond retry waits.
func start(b *testing.B, opts astrasim.Options) (*astrasim.Sim, *astra.Client) {
	b.Helper()
	sim, url, stop, err := astrasim.Serve(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	client, err := astra.New(astra.Config{
		Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken,
		RetryWaitMin: time.Millisecond, RetryWaitMax: 5 * time.Millisecond, MaxRetries: 8,
	})
	if err != nil {
		b.Fatal(err)
	}
	return sim, client
}

func requests(sim *astrasim.Sim) int {
	n := 0
	for _, c := range sim.Counts() {
		n += c
	}
	return n
}

// registerAndRemove is the whole private-cluster workflow the provider drives: credential,
// add, manage, unmanage, remove, credential deleted.
func registerAndRemove(ctx context.Context, c *astra.Client, cloudID string, i int) error {
	kc := astrasim.TestKubeconfig(fmt.Sprintf("bench-%d", i), fmt.Sprintf("https://bench-%d.example.com:6443", i))
	body, err := astra.KubeconfigCredential(fmt.Sprintf("bench-%d", i), kc)
	if err != nil {
		return err
	}
	cred, err := c.CreateCredential(ctx, body)
	if err != nil {
		return err
	}
	cluster, err := c.CreateCluster(ctx, cloudID, astra.ClusterCreate{CredentialID: cred.ID})
	if err != nil {
		return err
	}
	if _, err := c.CreateManagedCluster(ctx, astra.ManagedClusterCreate{ID: cluster.ID}); err != nil {
		return err
	}
	if err := c.DeleteManagedCluster(ctx, cluster.ID); err != nil {
		return err
	}
	if err := c.DeleteCluster(ctx, cloudID, cluster.ID); err != nil {
		return err
	}
	return c.DeleteCredential(ctx, cred.ID)
}

// BenchmarkWorkflow compares the same workflow against a strict simulator (request bodies
// validated against the published schema), a lenient one, and one that also validates every
// response body (what the simulator's own tests run with).
func BenchmarkWorkflow(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts astrasim.Options
	}{
		{"strict", astrasim.Options{}},
		{"lenient", astrasim.Options{Lenient: true}},
		{"strict+response-check", astrasim.Options{OnResponseViolation: func(string, string, int, error) {}}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			sim, client := start(b, mode.opts)
			cloudID := sim.Seeds().PrivateCloudID
			ctx := context.Background()
			sim.ResetCounts()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := registerAndRemove(ctx, client, cloudID, i); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(requests(sim))/float64(b.N), "requests/op")
		})
	}
}

// BenchmarkListClusters compares a full listing with one that asks only for three fields
// (`include`), over 100 registered clusters.
func BenchmarkListClusters(b *testing.B) {
	sim, client := start(b, astrasim.Options{})
	ctx := context.Background()
	cloudID := sim.Seeds().PrivateCloudID
	for i := 0; i < 100; i++ {
		kc := astrasim.TestKubeconfig(fmt.Sprintf("list-%d", i), fmt.Sprintf("https://list-%d.example.com:6443", i))
		body, err := astra.KubeconfigCredential(fmt.Sprintf("list-%d", i), kc)
		if err != nil {
			b.Fatal(err)
		}
		cred, err := client.CreateCredential(ctx, body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := client.CreateCluster(ctx, cloudID, astra.ClusterCreate{CredentialID: cred.ID}); err != nil {
			b.Fatal(err)
		}
	}
	for _, mode := range []struct {
		name string
		opts astra.ListOptions
	}{
		{"full", astra.ListOptions{}},
		{"include=id,name,state", astra.ListOptions{Include: []string{"id", "name", "state"}}},
		{"filter=state-eq-running", astra.ListOptions{Filters: []astra.Filter{astra.Eq("state", "running")}}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				items, err := client.ListClusters(ctx, "", mode.opts)
				if err != nil {
					b.Fatal(err)
				}
				n = len(items)
			}
			b.ReportMetric(float64(n), "clusters")
		})
	}
}

// BenchmarkRetryUnder503 measures what a flaky service costs: every third GET answers 503.
func BenchmarkRetryUnder503(b *testing.B) {
	for _, p := range []float64{0, 0.33} {
		b.Run(fmt.Sprintf("p503=%.2f", p), func(b *testing.B) {
			sim, client := start(b, astrasim.Options{Seed: 1})
			if p > 0 {
				sim.AddFault(astrasim.Fault{Method: "GET", Route: "/topology/v1/clouds", Kind: astrasim.FaultUnavailable, Probability: p})
			}
			ctx := context.Background()
			sim.ResetCounts()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := client.ListClouds(ctx, astra.ListOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(requests(sim))/float64(b.N), "requests/op")
		})
	}
}
