package astra

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestIsLoopbackHost(t *testing.T) {
	cases := map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "::ffff:127.0.0.1": true, "::1%lo": true,
		"localhost": true, "LocalHost.": true,
		"": false, "128.0.0.1": false, "10.0.0.1": false, "0.0.0.0": false, "::": false,
		"astra.example.com": false, "localhost.example.com": false, "foo.localhost": false, "127.0.0.1.nip.io": false,
	}
	for host, want := range cases {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestPlaintextToRemote(t *testing.T) {
	cases := map[string]bool{
		"http://astra.example.com": true, "HTTP://10.1.2.3:8080": true, "http://[::1]:8080": false,
		"http://127.0.0.1:8080": false, "http://localhost": false, "https://astra.example.com": false,
	}
	for endpoint, want := range cases {
		u, err := url.Parse(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		if got := PlaintextToRemote(u); got != want {
			t.Errorf("PlaintextToRemote(%s) = %v, want %v", endpoint, got, want)
		}
	}
}

func TestCheckRedirectTarget(t *testing.T) {
	cases := []struct {
		from, to string
		want     string // "" when the redirect is followed
	}{
		{"https://astra.example.com/a", "https://astra.example.com:443/b", ""},
		{"https://astra.example.com/a", "https://ASTRA.example.com/b?x=1", ""},
		{"http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b", ""},
		{"https://astra.example.com/a", "https://astra.example.com:8443/b",
			"refused to follow a redirect to https://astra.example.com:8443/b: it leaves https://astra.example.com:443, the only origin"},
		{"https://astra.example.com/a", "https://eu.astra.example.com/b",
			"refused to follow a redirect to https://eu.astra.example.com/b: it leaves https://astra.example.com:443"},
		{"https://astra.example.com/a", "http://astra.example.com/b",
			"refused to follow a redirect to http://astra.example.com/b: it leaves https for plain http"},
		{"https://astra.example.com/a", "http://astra.example.com:443/b", "it leaves https for plain http"},
		{"http://127.0.0.1:8080/a", "https://127.0.0.1:8080/b", "it leaves http://127.0.0.1:8080,"},
		{"https://[::1]:8443/a", "https://[::1]:9443/b", "redirect to https://[::1]:9443/b: it leaves https://[::1]:8443,"},
		{"https://astra.example.com/a", "https://user:pw@evil.example.com/p?token=s3cret#frag",
			"refused to follow a redirect to https://evil.example.com/p: it leaves"},
	}
	for _, c := range cases {
		from, _ := url.Parse(c.from)
		to, _ := url.Parse(c.to)
		err := checkRedirectTarget(from, to)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s -> %s: refused: %v", c.from, c.to, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s -> %s: error %v, want it to contain %q", c.from, c.to, err, c.want)
		case err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "pw@")):
			t.Errorf("%s -> %s: the error echoes the target's secrets: %v", c.from, c.to, err)
		}
	}
}

const redirectedPath = accountPrefix + "/topology/v1/clouds/" + testCloud

// redirectTo answers every request with a 307 to target plus a query that must never be echoed.
func redirectTo(target string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		http.Redirect(w, r, target+redirectedPath+"?token=leaked-query", http.StatusTemporaryRedirect)
	}
}

// newFakeOn is newFake listening on addr, e.g. another loopback address.
func newFakeOn(t *testing.T, addr string, handler func(http.ResponseWriter, *http.Request, []byte)) *fakeAstra {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listening on %s: %v", addr, err)
	}
	f := &fakeAstra{}
	f.srv = httptest.NewUnstartedServer(f.wrap(handler))
	_ = f.srv.Listener.Close()
	f.srv.Listener = ln
	f.srv.Start()
	t.Cleanup(f.srv.Close)
	return f
}

// TestRedirectsNeverCarryTheTokenAway: a redirect to another port, another host name or
// from https to http is an error naming the target; nothing reaches the target, and the
// refusal is not retried. Go's own policy, the control, would have followed each one and,
// for another port or a downgrade, sent the token along.
func TestRedirectsNeverCarryTheTokenAway(t *testing.T) {
	plainTarget := newFake(t, sequence([]int{200}, cloudJSON))
	otherHost := newFakeOn(t, "127.0.0.2:0", sequence([]int{200}, cloudJSON))
	var selfAsLocalhost string
	self := newFake(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if strings.HasPrefix(r.Host, "localhost:") {
			reply(w, http.StatusOK, "application/json", cloudJSON)
			return
		}
		redirectTo(selfAsLocalhost)(w, r, body)
	})
	selfAsLocalhost = strings.Replace(self.srv.URL, "127.0.0.1", "localhost", 1)
	cases := []struct {
		name       string
		from       *fakeAstra
		target     *fakeAstra
		targetURL  string
		want       string
		goSendsKey bool // Go's default policy forwards Authorization to this target
	}{
		{"another port", newFake(t, redirectTo(plainTarget.srv.URL)), plainTarget, plainTarget.srv.URL,
			"it leaves http://127.0.0.1:", true},
		{"another address", newFake(t, redirectTo(otherHost.srv.URL)), otherHost, otherHost.srv.URL,
			"it leaves http://127.0.0.1:", false},
		{"another name of the same server", self, self, selfAsLocalhost, "it leaves http://127.0.0.1:", false},
		{"https to http", newTLSFake(t, redirectTo(plainTarget.srv.URL)), plainTarget, plainTarget.srv.URL,
			"it leaves https for plain http", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			from := c.from
			before := c.target.count()
			_, err := from.client(t).GetCloud(context.Background(), testCloud)
			want := "GET " + redirectedPath + ": refused to follow a redirect to " + c.targetURL + redirectedPath + ": " + c.want
			var redirect *RedirectError
			if err == nil || !strings.Contains(err.Error(), want) || !errors.As(err, &redirect) {
				t.Fatalf("error %v, want it to contain %q", err, want)
			}
			if strings.Contains(err.Error(), "leaked-query") || strings.Contains(err.Error(), testToken) {
				t.Fatalf("the error echoes a secret: %v", err)
			}
			if got := from.count(); got != 1 {
				t.Fatalf("the endpoint saw %d requests, want 1: the redirect was followed or retried", got)
			}
			if got := c.target.count() - before; c.target != from && got != 0 {
				t.Fatalf("%d requests reached the redirect target", got)
			}

			// The control: Go's default policy follows this redirect.
			before = c.target.count()
			req, _ := http.NewRequest(http.MethodGet, from.srv.URL+redirectedPath, nil)
			req.Header.Set("Authorization", "Bearer "+testToken)
			resp, err := from.srv.Client().Do(req)
			if err != nil {
				t.Fatalf("control: %v", err)
			}
			_ = resp.Body.Close()
			reqs := c.target.requests()
			if len(reqs)-before < 1 {
				t.Fatal("control: Go's default policy did not follow the redirect")
			}
			if sent := reqs[len(reqs)-1].Header.Get("Authorization") != ""; sent != c.goSendsKey {
				t.Fatalf("control: Go's default policy forwarded the token: %v, expected %v", sent, c.goSendsKey)
			}
		})
	}
}

// TestSameOriginRedirectIsFollowed: a redirect within the endpoint's origin still works,
// and the token goes along.
func TestSameOriginRedirectIsFollowed(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.URL.Query().Get("hop") == "" {
			http.Redirect(w, r, redirectedPath+"?hop=1", http.StatusMovedPermanently)
			return
		}
		reply(w, http.StatusOK, "application/json", cloudJSON)
	})
	cloud, err := f.client(t).GetCloud(context.Background(), testCloud)
	if err != nil || cloud.ID != testCloud {
		t.Fatalf("cloud %+v, error %v", cloud, err)
	}
	reqs := f.requests()
	if len(reqs) != 2 || reqs[1].RawQuery != "hop=1" {
		t.Fatalf("requests %+v, want the original and the redirected one", reqs)
	}
	for i, r := range reqs {
		if r.Header.Get("Authorization") != "Bearer "+testToken {
			t.Fatalf("request %d carried Authorization %q", i, r.Header.Get("Authorization"))
		}
	}
}

// TestRefusedRedirectOfACreate: a POST answered by a redirect to another origin is a plain
// error (the server answered; nothing was created), not an unknown outcome, and is not
// retried. The log names the target without its query.
func TestRefusedRedirectOfACreate(t *testing.T) {
	t.Setenv("TF_LOG_PROVIDER_ASTRA_API", "DEBUG")
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &logs)
	target := newFake(t, sequence([]int{201}, cloudJSON))
	f := newFake(t, redirectTo(target.srv.URL))
	_, err := f.client(t).CreateCloud(ctx, CloudCreate{Name: "n", CloudType: "private"})
	var redirect *RedirectError
	if !errors.As(err, &redirect) || IsUnknownOutcome(err) {
		t.Fatalf("error %v (%T), want a refused redirect that is not an unknown outcome", err, err)
	}
	if f.count() != 1 || target.count() != 0 {
		t.Fatalf("endpoint saw %d requests (want 1), target %d (want 0)", f.count(), target.count())
	}
	if !strings.Contains(logs.String(), "refused to follow a redirect to "+target.srv.URL) || strings.Contains(logs.String(), "leaked-query") {
		t.Fatalf("want the refusal logged without the target's query:\n%s", logs.String())
	}
}

// TestRedirectLoopStops: a same-origin loop stops at Go's usual limit of 10 and is not retried.
func TestRedirectLoopStops(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		http.Redirect(w, r, redirectedPath+"?token=leaked-query", http.StatusFound)
	})
	_, err := f.client(t).GetCloud(context.Background(), testCloud)
	want := "GET " + redirectedPath + ": stopped after 10 redirects, at " + f.srv.URL + redirectedPath
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
	if f.count() != 10 {
		t.Fatalf("requests = %d, want 10 (one chain, no retry)", f.count())
	}
}
