package testutil

import (
	"context"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

// SimCluster is a simulator serving one registered cluster, with a client for it.
type SimCluster struct {
	Sim                              *astrasim.Sim
	URL                              string
	Client                           *astra.Client
	CloudID, CredentialID, ClusterID string
}

// NewSimCluster serves a simulator for the test, registers a cluster named after tag with a
// kubeconfig credential, and points the provider's environment (ASTRA_ENDPOINT and the
// rest) at it.
func NewSimCluster(tb testing.TB, tag string) *SimCluster {
	tb.Helper()
	ctx := context.Background()
	sim, url, stop, err := astrasim.Serve(astrasim.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(stop)
	client, err := astra.New(astra.Config{Endpoint: url, AccountID: sim.AccountID(), Token: astrasim.DefaultToken})
	if err != nil {
		tb.Fatal(err)
	}
	s := &SimCluster{Sim: sim, URL: url, Client: client, CloudID: sim.Seeds().PrivateCloudID}
	if s.CredentialID, err = s.NewCredential(tag); err != nil {
		tb.Fatal(err)
	}
	cluster, err := client.CreateCluster(ctx, s.CloudID, astra.ClusterCreate{CredentialID: s.CredentialID})
	if err != nil {
		tb.Fatal(err)
	}
	s.ClusterID = cluster.ID
	tb.Setenv("ASTRA_ENDPOINT", url)
	tb.Setenv("ASTRA_ACCOUNT_ID", sim.AccountID())
	tb.Setenv("ASTRA_API_TOKEN", astrasim.DefaultToken)
	tb.Setenv("ASTRA_ALLOW_PLAINTEXT_ENDPOINT", "true")
	return s
}

// NewCredential adds a kubeconfig credential for a cluster named name and returns its ID.
func (s *SimCluster) NewCredential(name string) (string, error) {
	body, err := astra.KubeconfigCredential(name, astrasim.TestKubeconfig(name, "https://"+name+".k8s.example:6443"))
	if err != nil {
		return "", err
	}
	cred, err := s.Client.CreateCredential(context.Background(), body)
	if err != nil {
		return "", err
	}
	return cred.ID, nil
}
