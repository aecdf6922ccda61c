package astra

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func clusterNamed(id, name, apiService, credential string) string {
	return `{"type":"application/astra-cluster","version":"1.5","id":"` + id + `","name":"` + name +
		`","apiServiceID":"` + apiService + `","credentialID":"` + credential + `"}`
}

func TestFindCluster(t *testing.T) {
	all := listOf(
		clusterNamed("1", "east", "svc-1", "cred-1"),
		clusterNamed("2", "west", "svc-2", "cred-2"),
		clusterNamed("3", "west", "svc-3", "cred-3"),
	)
	cases := []struct {
		name      string
		match     ClusterMatch
		filterErr bool // the server refuses filters
		wantID    string
		wantErr   string
		wantQuery []string
	}{
		{"by name", ClusterMatch{Name: "east"}, false, "1", "", []string{"filter=name%20eq%20%27east%27"}},
		{"by API service ID", ClusterMatch{APIServiceID: "svc-3"}, false, "3", "", []string{"filter=apiServiceID%20eq%20%27svc-3%27"}},
		{"every field must match", ClusterMatch{Name: "west", CredentialID: "cred-2"}, false, "2", "",
			[]string{"filter=name%20eq%20%27west%27&filter=credentialID%20eq%20%27cred-2%27"}},
		{"nothing matches", ClusterMatch{Name: "north"}, false, "", "", []string{"filter=name%20eq%20%27north%27"}},
		{"ambiguous", ClusterMatch{Name: "west"}, false, "", "2 clusters match; cannot tell which one is meant", []string{"filter=name%20eq%20%27west%27"}},
		{"unfilterable name lists everything", ClusterMatch{Name: "o'east"}, false, "", "", []string{""}},
		{"filters refused: falls back", ClusterMatch{Name: "east"}, true, "1", "", []string{"filter=name%20eq%20%27east%27", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
				if c.filterErr && r.URL.RawQuery != "" {
					reply(w, 400, "application/problem+json", problemJSON(6, "400", "Query parameters not supported", "d"))
					return
				}
				reply(w, 200, "application/json", all) // the fake ignores filters: the finder must check
			})
			got, err := f.client(t).FindCluster(context.Background(), testCloud, c.match)
			if c.wantErr != "" {
				var amb *AmbiguousMatchError
				if err == nil || err.Error() != c.wantErr || !errors.As(err, &amb) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			switch {
			case c.wantID == "" && got != nil:
				t.Fatalf("found %+v, want nothing", got)
			case c.wantID != "" && (got == nil || got.ID != c.wantID):
				t.Fatalf("found %+v, want %s", got, c.wantID)
			}
			var queries []string
			for _, r := range f.requests() {
				queries = append(queries, r.RawQuery)
				if r.Path != clustersAt {
					t.Errorf("path %s", r.Path)
				}
			}
			if strings.Join(queries, " | ") != strings.Join(c.wantQuery, " | ") {
				t.Fatalf("queries %q, want %q", queries, c.wantQuery)
			}
		})
	}
	f := newFake(t, router(nil))
	if _, err := f.client(t).FindCluster(context.Background(), "", ClusterMatch{}); err == nil || f.count() != 0 {
		t.Fatal("an empty match must be refused before any request")
	}
}

func TestFindCredentialAndCloud(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if strings.Contains(r.URL.Path, "credentials") {
			reply(w, 200, "application/json", listOf(credentialJSON))
			return
		}
		reply(w, 200, "application/json", listOf(cloudJSON))
	})
	c := f.client(t)
	cred, err := c.FindCredential(context.Background(), "prod-east")
	if err != nil || cred == nil || cred.ID != testCredential {
		t.Fatalf("credential: %+v %v", cred, err)
	}
	cloud, err := c.FindCloud(context.Background(), "private")
	if err != nil || cloud == nil || cloud.ID != testCloud {
		t.Fatalf("cloud: %+v %v", cloud, err)
	}
	missing, err := c.FindCloud(context.Background(), "public")
	if err != nil || missing != nil {
		t.Fatalf("missing cloud: %+v %v", missing, err)
	}
	if reqs := f.requests(); reqs[0].RawQuery != "filter=name%20eq%20%27prod-east%27" || reqs[1].Path != cloudsAt {
		t.Fatalf("requests %+v", reqs)
	}
	if _, err := c.FindCredential(context.Background(), ""); err == nil {
		t.Fatal("an empty name must be refused")
	}
}

func TestFindAfterALostPost(t *testing.T) {
	// The POST reaches the server, which creates the cluster, but the answer is a 504.
	created := false
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		switch r.Method {
		case http.MethodPost:
			created = true
			reply(w, 504, "text/html", "<html><title>504 Gateway Time-out</title></html>")
		default:
			if created {
				reply(w, 200, "application/json", listOf(clusterNamed(testCluster, "prod-east", testAPIService, testCredential)))
				return
			}
			reply(w, 200, "application/json", listOf())
		}
	})
	c := f.client(t)
	_, err := c.CreateCluster(context.Background(), testCloud, ClusterCreate{Name: "prod-east", CredentialID: testCredential})
	if !IsUnknownOutcome(err) || !strings.Contains(err.Error(), "504 Gateway Time-out") {
		t.Fatalf("err %v", err)
	}
	found, err := c.FindCluster(context.Background(), testCloud, ClusterMatch{Name: "prod-east", CredentialID: testCredential})
	if err != nil || found == nil || found.ID != testCluster {
		t.Fatalf("the cluster the lost POST created was not found: %+v %v", found, err)
	}
	if posts := countMethod(f.requests(), http.MethodPost); posts != 1 {
		t.Fatalf("%d POSTs; a lost POST must not be repeated", posts)
	}
}

func countMethod(reqs []recorded, method string) int {
	n := 0
	for _, r := range reqs {
		if r.Method == method {
			n++
		}
	}
	return n
}
