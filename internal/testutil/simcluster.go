package testutil

import (
	"context"
	"fmt"
	"testing"
	"time"

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

// ClearAstraEnvironment keeps the developer's connection variables out of a test that
// configures the provider. They are internal/provider/config's Env* (which this package
// cannot import: config's tests import it).
func ClearAstraEnvironment(tb testing.TB) {
	for _, name := range []string{"ASTRA_ENDPOINT", "ASTRA_ACCOUNT_ID", "ASTRA_API_TOKEN", "ASTRA_CA_CERTIFICATE",
		"ASTRA_CA_CERTIFICATE_FILE", "ASTRA_INSECURE_SKIP_VERIFY", "ASTRA_API_VERSION", "ASTRA_REQUEST_TIMEOUT", "ASTRA_MAX_RETRIES"} {
		tb.Setenv(name, "")
	}
}

// GCPKeyFile is generation n of a GCP service account's key file (its private key is fake).
func GCPKeyFile(n int) string {
	return fmt.Sprintf(`{"type":"service_account","project_id":"astra-test","client_email":"astra@astra-test.iam.gserviceaccount.com","private_key":"sa-fake-private-key-%d"}`, n)
}

// WaitUntil polls get every few milliseconds (the simulator's pace) until done, or fails
// the test.
func WaitUntil[T any](tb testing.TB, what string, get func(context.Context) (*T, error), done func(*T) (bool, error)) {
	tb.Helper()
	schedule := astra.Schedule{Min: time.Millisecond, Max: 5 * time.Millisecond, Multiplier: 1.5, NotFoundGrace: 200 * time.Millisecond}
	if _, err := astra.Wait(context.Background(), schedule, get, done); err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
}
