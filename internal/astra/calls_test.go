package astra

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const (
	cloudsAt          = accountPrefix + "/topology/v1/clouds"
	cloudAt           = cloudsAt + "/" + testCloud
	clusterAt         = clustersAt + "/" + testCluster
	aliasClustersAt   = accountPrefix + "/topology/v1/clusters"
	aliasClusterAt    = aliasClustersAt + "/" + testCluster
	managedClustersAt = accountPrefix + "/topology/v1/managedClusters"
	managedClusterAt  = managedClustersAt + "/" + testCluster
	credentialsAt     = accountPrefix + "/core/v1/credentials"
	credentialAt      = credentialsAt + "/" + testCredential
)

// callCase exercises one client call against canned routes: the requests it must send
// ("METHOD path?query", in order) and what it must return.
type callCase struct {
	name   string
	routes map[string]route
	call   func(context.Context, *Client) (any, error)
	want   []string
	check  func(any) string
}

// as converts a call's result for its check; a wrong type yields the zero value, which
// the check then reports.
func as[T any](v any) T {
	out, _ := v.(T)
	return out
}

func runCallCases(t *testing.T, cases []callCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, router(c.routes))
			got, err := c.call(context.Background(), f.client(t))
			if err != nil {
				t.Fatalf("call failed: %v", err)
			}
			var lines []string
			for _, r := range f.requests() {
				line := r.Method + " " + r.Path
				if r.RawQuery != "" {
					line += "?" + r.RawQuery
				}
				lines = append(lines, line)
			}
			if strings.Join(lines, "\n") != strings.Join(c.want, "\n") {
				t.Fatalf("requests:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(c.want, "\n"))
			}
			if c.check != nil {
				if msg := c.check(got); msg != "" {
					t.Fatal(msg)
				}
			}
		})
	}
}

func TestCloudCalls(t *testing.T) {
	gcp := strings.Replace(cloudJSON, `"cloudType":"private"`, `"cloudType":"GCP"`, 1)
	runCallCases(t, []callCase{
		{"list with filter", map[string]route{"GET " + cloudsAt: {200, listOf(gcp)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListClouds(ctx, ListOptions{Filters: []Filter{Eq("cloudType", "private")}})
			},
			[]string{"GET " + cloudsAt + "?filter=cloudType%20eq%20%27private%27"},
			func(v any) string {
				clouds := as[[]Cloud](v)
				if len(clouds) != 1 || clouds[0].CloudType != "GCP" || NormalizeCloudType(clouds[0].CloudType) != CloudTypeGCP {
					return fmt.Sprintf("%+v", clouds)
				}
				return ""
			}},
		{"get", map[string]route{"GET " + cloudAt: {200, cloudJSON}},
			func(ctx context.Context, c *Client) (any, error) { return c.GetCloud(ctx, testCloud) },
			[]string{"GET " + cloudAt}, nil},
		{"create", map[string]route{"POST " + cloudsAt: {201, cloudJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.CreateCloud(ctx, CloudCreate{Name: "private", CloudType: "Private"})
			},
			[]string{"POST " + cloudsAt}, nil},
		{"update answered 204 is read back", map[string]route{"PUT " + cloudAt: {204, ""}, "GET " + cloudAt: {200, cloudJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateCloud(ctx, &Cloud{ID: testCloud, Name: "private", CloudType: "private"})
			},
			[]string{"PUT " + cloudAt, "GET " + cloudAt},
			func(v any) string {
				if as[*Cloud](v).State != "running" {
					return "the re-read cloud was not returned"
				}
				return ""
			}},
		{"delete", map[string]route{"DELETE " + cloudAt: {204, ""}},
			func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteCloud(ctx, testCloud) },
			[]string{"DELETE " + cloudAt}, nil},
	})
}

func TestClusterCalls(t *testing.T) {
	runCallCases(t, []callCase{
		{"list per cloud with filter, include and limit",
			map[string]route{"GET " + clustersAt: {200, listOf(`["` + testCluster + `","prod-east","managed","true"]`)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListClusters(ctx, testCloud, ListOptions{
					Filters: []Filter{Eq("managedState", "managed"), {Field: "name", Op: "in", Value: "a,b"}},
					Include: []string{"id", "name", "managedState", "inUse"}, Limit: 5,
				})
			},
			[]string{"GET " + clustersAt + "?filter=managedState%20eq%20%27managed%27&filter=name%20in%20%27a%2Cb%27&include=id%2Cname%2CmanagedState%2CinUse&limit=5"},
			func(v any) string {
				cs := as[[]Cluster](v)
				if len(cs) != 1 || cs[0].ID != testCluster || cs[0].Name != "prod-east" || cs[0].ManagedState != "managed" || !cs[0].InUse.Value() {
					return fmt.Sprintf("include items were not mapped back: %+v", cs)
				}
				return ""
			}},
		{"list through the cloud-less alias", map[string]route{"GET " + aliasClustersAt: {200, listOf(fullClusterJSON, fullClusterJSON)}},
			func(ctx context.Context, c *Client) (any, error) { return c.ListClusters(ctx, "", ListOptions{}) },
			[]string{"GET " + aliasClustersAt},
			func(v any) string {
				if cs := as[[]Cluster](v); len(cs) != 2 || cs[1].CloudID != testCloud {
					return fmt.Sprintf("%+v", cs)
				}
				return ""
			}},
		{"get per cloud", map[string]route{"GET " + clusterAt: {200, fullClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) { return c.GetCluster(ctx, testCloud, testCluster) },
			[]string{"GET " + clusterAt},
			func(v any) string {
				c := as[*Cluster](v)
				if c.ManagedStateDetails[0].Title != "Managed" || !c.SnapshotSupported.Value() || c.APIServiceID != testAPIService ||
					len(c.Metadata.Labels) != 2 || c.Metadata.CreatedBy != testUser || c.ACPVersion != "23.10.0" {
					return fmt.Sprintf("%+v", c)
				}
				return ""
			}},
		{"get through the alias", map[string]route{"GET " + aliasClusterAt: {200, fullClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) { return c.GetCluster(ctx, "", testCluster) },
			[]string{"GET " + aliasClusterAt}, nil},
		{"create", map[string]route{"POST " + clustersAt: {201, fullClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.CreateCluster(ctx, testCloud, ClusterCreate{CredentialID: testCredential})
			},
			[]string{"POST " + clustersAt}, nil},
		{"update answered 200 with a body is read back all the same", map[string]route{"PUT " + clusterAt: {200, `{"id":"` + testCluster + `","name":"echoed"}`},
			"GET " + clusterAt: {200, fullClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateCluster(ctx, testCloud, &Cluster{ID: testCluster, ClusterStatus: ClusterStatus{Name: "renamed"}})
			},
			[]string{"PUT " + clusterAt, "GET " + clusterAt},
			func(v any) string {
				if as[*Cluster](v).Name != "prod-east" {
					return "the object read back after the PUT should be returned, never the PUT's answer"
				}
				return ""
			}},
		{"update answered 204 is read back", map[string]route{"PUT " + aliasClusterAt: {204, ""}, "GET " + aliasClusterAt: {200, fullClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateCluster(ctx, "", &Cluster{ID: testCluster, ClusterStatus: ClusterStatus{Name: "renamed"}})
			},
			[]string{"PUT " + aliasClusterAt, "GET " + aliasClusterAt}, nil},
		{"delete per cloud", map[string]route{"DELETE " + clusterAt: {204, ""}},
			func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteCluster(ctx, testCloud, testCluster)
			},
			[]string{"DELETE " + clusterAt}, nil},
		{"delete through the alias", map[string]route{"DELETE " + aliasClusterAt: {204, ""}},
			func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteCluster(ctx, "", testCluster) },
			[]string{"DELETE " + aliasClusterAt}, nil},
	})
}

func TestManagedClusterCalls(t *testing.T) {
	runCallCases(t, []callCase{
		{"list", map[string]route{"GET " + managedClustersAt: {200, listOf(managedClusterJSON)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListManagedClusters(ctx, ListOptions{Limit: 1})
			},
			[]string{"GET " + managedClustersAt + "?limit=1"},
			func(v any) string {
				mcs := as[[]ManagedCluster](v)
				if len(mcs) != 1 || string(mcs[0].Extra["connectorCapabilities"]) != `["relayV1","watcherV1","neptuneV1"]` {
					return fmt.Sprintf("connectorCapabilities should be kept as an unknown member: %+v", mcs)
				}
				return ""
			}},
		{"get", map[string]route{"GET " + managedClusterAt: {200, managedClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) { return c.GetManagedCluster(ctx, testCluster) },
			[]string{"GET " + managedClusterAt}, nil},
		{"create", map[string]route{"POST " + managedClustersAt: {201, managedClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.CreateManagedCluster(ctx, ManagedClusterCreate{ID: testCluster, DefaultStorageClass: testSC})
			},
			[]string{"POST " + managedClustersAt}, nil},
		{"update answered 200 is read back", map[string]route{"PUT " + managedClusterAt: {200, managedClusterJSON},
			"GET " + managedClusterAt: {200, managedClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateManagedCluster(ctx, &ManagedCluster{ID: testCluster, ClusterStatus: ClusterStatus{DefaultStorageClass: testSC}})
			},
			[]string{"PUT " + managedClusterAt, "GET " + managedClusterAt}, nil},
		{"update answered 204", map[string]route{"PUT " + managedClusterAt: {204, ""}, "GET " + managedClusterAt: {200, managedClusterJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateManagedCluster(ctx, &ManagedCluster{ID: testCluster})
			},
			[]string{"PUT " + managedClusterAt, "GET " + managedClusterAt}, nil},
		{"delete", map[string]route{"DELETE " + managedClusterAt: {204, ""}},
			func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteManagedCluster(ctx, testCluster)
			},
			[]string{"DELETE " + managedClusterAt}, nil},
	})
}

func TestCredentialCalls(t *testing.T) {
	store := map[string]string{"base64": "e30="}
	runCallCases(t, []callCase{
		{"list", map[string]route{"GET " + credentialsAt: {200, listOf(credentialJSON)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListCredentials(ctx, ListOptions{Filters: []Filter{Eq("keyType", "kubeconfig")}})
			},
			[]string{"GET " + credentialsAt + "?filter=keyType%20eq%20%27kubeconfig%27"},
			func(v any) string {
				if cs := as[[]Credential](v); len(cs) != 1 || !cs[0].Valid.Value() || cs[0].KeyType != "kubeconfig" {
					return fmt.Sprintf("%+v", cs)
				}
				return ""
			}},
		{"get", map[string]route{"GET " + credentialAt: {200, credentialJSON}},
			func(ctx context.Context, c *Client) (any, error) { return c.GetCredential(ctx, testCredential) },
			[]string{"GET " + credentialAt}, nil},
		{"create", map[string]route{"POST " + credentialsAt: {201, credentialJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.CreateCredential(ctx, CredentialCreate{Name: "n", KeyType: "kubeconfig", KeyStore: store})
			},
			[]string{"POST " + credentialsAt}, nil},
		{"rotate answered 200 with a body is read back", map[string]route{"PUT " + credentialAt: {200, credentialJSON},
			"GET " + credentialAt: {200, credentialJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateCredential(ctx, testCredential, CredentialCreate{Name: "n", KeyStore: store})
			},
			[]string{"PUT " + credentialAt, "GET " + credentialAt}, nil},
		{"rotate answered 204", map[string]route{"PUT " + credentialAt: {204, ""}, "GET " + credentialAt: {200, credentialJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateCredential(ctx, testCredential, CredentialCreate{Name: "n", KeyStore: store})
			},
			[]string{"PUT " + credentialAt, "GET " + credentialAt}, nil},
		{"delete", map[string]route{"DELETE " + credentialAt: {204, ""}},
			func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteCredential(ctx, testCredential) },
			[]string{"DELETE " + credentialAt}, nil},
	})
}

func TestStorageClassCalls(t *testing.T) {
	scs, sc := "/storageClasses", "/storageClasses/"+testSC
	checkSC := func(v any) string {
		var s *StorageClass
		switch x := v.(type) {
		case []StorageClass:
			if len(x) != 1 {
				return fmt.Sprintf("%d classes", len(x))
			}
			s = &x[0]
		case *StorageClass:
			s = x
		}
		if s.Name != "ontap-gold" || !s.IsDefault.Value() || s.Metadata.CreatedBy != "system" || string(s.Extra["maxSnapshotCount"]) != "200" {
			return fmt.Sprintf("%+v", s)
		}
		return ""
	}
	runCallCases(t, []callCase{
		{"list per cloud", map[string]route{"GET " + clusterAt + scs: {200, listOf(storageClassJSON)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListStorageClasses(ctx, testCloud, testCluster)
			},
			[]string{"GET " + clusterAt + scs}, checkSC},
		{"list through the alias", map[string]route{"GET " + aliasClusterAt + scs: {200, listOf(storageClassJSON)}},
			func(ctx context.Context, c *Client) (any, error) { return c.ListStorageClasses(ctx, "", testCluster) },
			[]string{"GET " + aliasClusterAt + scs}, checkSC},
		{"get per cloud", map[string]route{"GET " + clusterAt + sc: {200, storageClassJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.GetStorageClass(ctx, testCloud, testCluster, testSC)
			},
			[]string{"GET " + clusterAt + sc}, checkSC},
		{"get through the alias", map[string]route{"GET " + aliasClusterAt + sc: {200, storageClassJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.GetStorageClass(ctx, "", testCluster, testSC)
			},
			[]string{"GET " + aliasClusterAt + sc}, checkSC},
		{"list of a managed cluster", map[string]route{"GET " + managedClusterAt + scs: {200, listOf(storageClassJSON)}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListManagedClusterStorageClasses(ctx, testCluster)
			},
			[]string{"GET " + managedClusterAt + scs}, checkSC},
		{"get of a managed cluster", map[string]route{"GET " + managedClusterAt + sc: {200, storageClassJSON}},
			func(ctx context.Context, c *Client) (any, error) {
				return c.GetManagedClusterStorageClass(ctx, testCluster, testSC)
			},
			[]string{"GET " + managedClusterAt + sc}, checkSC},
	})
}

func TestGetOfAMissingObjectIsNotFound(t *testing.T) {
	f := newFake(t, router(nil))
	c := f.client(t)
	ctx := context.Background()
	calls := map[string]func() error{
		"cloud":          func() error { _, err := c.GetCloud(ctx, testCloud); return err },
		"cluster":        func() error { _, err := c.GetCluster(ctx, testCloud, testCluster); return err },
		"managedCluster": func() error { _, err := c.GetManagedCluster(ctx, testCluster); return err },
		"credential":     func() error { _, err := c.GetCredential(ctx, testCredential); return err },
		"storageClass":   func() error { _, err := c.GetManagedClusterStorageClass(ctx, testCluster, testSC); return err },
	}
	for name, call := range calls {
		err := call()
		if !IsNotFound(err) || ProblemNumber(err) != 1 {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCreateWithoutBodyFollowsLocation(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		switch r.Method {
		case http.MethodPost:
			w.Header().Set("Location", "https://astra.example.com"+clusterAt)
			w.WriteHeader(http.StatusCreated)
		default:
			reply(w, 200, "application/json", fullClusterJSON)
		}
	})
	cl, err := f.client(t).CreateCluster(context.Background(), testCloud, ClusterCreate{CredentialID: testCredential})
	if err != nil || cl.ID != testCluster {
		t.Fatalf("got %+v, %v", cl, err)
	}
	if reqs := f.requests(); len(reqs) != 2 || reqs[1].Method != "GET" || reqs[1].Path != clusterAt {
		t.Fatalf("requests %+v", reqs)
	}

	bare := newFake(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { w.WriteHeader(http.StatusCreated) })
	_, err = bare.client(t).CreateCloud(context.Background(), CloudCreate{Name: "n", CloudType: "private"})
	if !IsUnknownOutcome(err) || !strings.Contains(err.Error(), "named no object") {
		t.Fatalf("a 201 naming nothing leaves the outcome unknown: %v", err)
	}
}
