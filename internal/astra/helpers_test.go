package astra

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// IDs in the UUIDv4 form the published schema requires.
const (
	testAccount    = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
	testToken      = "tok-3f9c2a7e-SECRET-b81d"
	testCloud      = "6fa2f917-f730-41b8-9c15-17f531843b31"
	testCluster    = "7b3c1e2d-5a6f-4b8c-9d0e-1f2a3b4c5d6e"
	testCredential = "8f84cf09-8036-41e4-b579-bd30cb07b269"
	testSC         = "e280ff62-be35-4f31-a31b-a210a1ad1b33"
	testAPIService = "1c9512c3-ec62-4ed8-8013-02fc090b9d03"
	testBucket     = "a549b757-2be1-494f-aafa-4ee399ca3f00"
	testUser       = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a"
	accountPrefix  = "/accounts/" + testAccount
)

// recorded is one request as the fake server saw it.
type recorded struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
}

// fakeAstra is an httptest server whose handler the test supplies; it records every request.
type fakeAstra struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []recorded
}

func newFake(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, body []byte)) *fakeAstra {
	t.Helper()
	f := &fakeAstra{}
	f.srv = httptest.NewServer(f.wrap(handler))
	t.Cleanup(f.srv.Close)
	return f
}

func newTLSFake(t *testing.T, handler func(w http.ResponseWriter, r *http.Request, body []byte)) *fakeAstra {
	t.Helper()
	f := &fakeAstra{}
	f.srv = httptest.NewUnstartedServer(f.wrap(handler))
	f.srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are the point of some tests
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAstra) wrap(handler func(http.ResponseWriter, *http.Request, []byte)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
		f.mu.Unlock()
		handler(w, r, body)
	}
}

func (f *fakeAstra) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

func (f *fakeAstra) count() int { return len(f.requests()) }

// testConfig is a fast configuration: millisecond retry waits, three retries.
func testConfig(endpoint string) Config {
	return Config{
		Endpoint:       endpoint,
		AccountID:      testAccount,
		Token:          testToken,
		RequestTimeout: 2 * time.Second,
		MaxRetries:     3,
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   5 * time.Millisecond,
		UserAgent:      "terraform-provider-astra/test Terraform/1.5.7",
	}
}

func (f *fakeAstra) client(t *testing.T, edits ...func(*Config)) *Client {
	t.Helper()
	cfg := testConfig(f.srv.URL)
	cfg.HTTPClient = f.srv.Client()
	for _, edit := range edits {
		edit(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// reply writes a JSON answer with the given content type.
func reply(w http.ResponseWriter, status int, contentType, body string) {
	if contentType != "" {
		w.Header().Set("Content-Type", contentType)
	}
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func problemJSON(n int, status, title, detail string) string {
	return `{"type":"https://astra.netapp.io/problems/` + strconv.Itoa(n) + `","title":"` + title + `","detail":"` + detail +
		`","status":"` + status + `","correlationID":"5b2a1c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"}`
}

// fullClusterJSON is a cluster as a 24.02 (cluster 1.7) server returns it: every member,
// spec-valid values.
const fullClusterJSON = `{
 "type":"application/astra-cluster","version":"1.7","id":"` + testCluster + `","name":"prod-east",
 "state":"running","stateUnready":[],"managedState":"managed","managedStateUnready":[],
 "managedStateDetails":[{"type":"https://astra.netapp.io/stateDetails/1","title":"Managed","detail":"The cluster is managed."}],
 "managedTimestamp":"2024-03-01T10:00:00Z","protectionState":"full",
 "protectionStateDetails":[{"type":"https://astra.netapp.io/stateDetails/2","title":"Protected","detail":"Snapshots supported."}],
 "restoreTargetSupported":"true","snapshotSupported":"true","tridentVersion":"23.10.0","acpVersion":"23.10.0",
 "tridentManagedState":"unmanaged","tridentManagedStateDesired":"unmanaged","tridentManagedStateDetails":[],
 "tridentManagedStateAllowed":["unmanaged"],"inUse":"false","accHost":"true","isMultizonal":"false",
 "clusterType":"openshift","clusterVersion":"1.27","clusterVersionString":"v1.27.6+f67aeb3",
 "clusterCreationTimestamp":"2024-02-28T09:00:00Z","namespaces":["default","kube-system"],
 "defaultStorageClass":"` + testSC + `","cloudID":"` + testCloud + `","credentialID":"` + testCredential + `",
 "location":"us-east-1","privateRouteID":"route-1","connectorCapabilities":["watcherV1"],
 "apiServiceID":"` + testAPIService + `",
 "metadata":{"labels":[{"name":"astra.netapp.io/labels/read-only/cloudName","value":"private"},{"name":"team","value":"storage"}],
  "creationTimestamp":"2024-02-28T09:05:00Z","modificationTimestamp":"2024-03-01T10:00:00Z","createdBy":"` + testUser + `"}
}`

const (
	managedClusterJSON = `{"type":"application/astra-managedCluster","version":"1.2","id":"` + testCluster + `","name":"prod-east",
 "state":"running","stateUnready":[],"managedState":"managed","managedStateUnready":[],"managedTimestamp":"2024-03-01T10:00:00Z",
 "protectionState":"full","protectionStateDetails":[],"inUse":"false","clusterType":"openshift","clusterVersion":"1.27",
 "clusterVersionString":"v1.27.6","cloudID":"` + testCloud + `","isMultizonal":"false","defaultStorageClass":"` + testSC + `",
 "connectorCapabilities":["relayV1","watcherV1","neptuneV1"],
 "metadata":{"labels":[],"creationTimestamp":"2024-02-28T09:05:00Z","modificationTimestamp":"2024-03-01T10:00:00Z","createdBy":"` + testUser + `"}}`

	credentialJSON = `{"type":"application/astra-credential","version":"1.1","id":"` + testCredential + `","name":"prod-east",
 "keyType":"kubeconfig","valid":"true","metadata":{"labels":[{"name":"astra.netapp.io/labels/read-only/credType","value":"kubeconfig"}],
 "creationTimestamp":"2024-02-28T09:00:00Z","modificationTimestamp":"2024-02-28T09:00:00Z","createdBy":"` + testUser + `"}}`

	storageClassJSON = `{"type":"application/astra-storageClass","version":"1.1","id":"` + testSC + `","name":"ontap-gold",
 "provisioner":"csi.trident.netapp.io","available":"eligible","allowVolumeExpansion":"true","reclaimPolicy":"Delete",
 "volumeBindingMode":"Immediate","isDefault":"true","maxSnapshotCount":200,"metadata":{"createdBy":"system"}}`
)

// listOf wraps items in the list envelope real servers send.
func listOf(items ...string) string {
	return `{"items":[` + strings.Join(items, ",") + `],"metadata":{}}`
}

// route is one canned answer of the router fake.
type route struct {
	status int
	body   string
}

// router answers "METHOD path" from routes (query ignored) and 404s anything else.
func router(routes map[string]route) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		rt, ok := routes[r.Method+" "+r.URL.EscapedPath()]
		if !ok {
			reply(w, 404, "application/problem+json", problemJSON(1, "404", "Resource not found", "no such resource"))
			return
		}
		if rt.status == http.StatusNoContent {
			w.WriteHeader(rt.status)
			return
		}
		reply(w, rt.status, "application/json", rt.body)
	}
}
