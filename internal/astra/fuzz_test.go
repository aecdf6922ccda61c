package astra

// Fuzz tests of what the client reads from the wire (problem answers, objects) and the
// filter encoder. Their seed corpus (f.Add below and testdata/fuzz/) runs with every
// `go test`; `make fuzz` fuzzes each for longer (scripts/fuzz.sh).

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzProblemDecoding: any error answer becomes an APIError without panicking; its message
// names the method, path and status, is valid UTF-8 without control characters (it is
// shown in a terminal) and stays short whatever the server sent.
func FuzzProblemDecoding(f *testing.F) {
	f.Add(409, "application/problem+json", []byte(problemJSON(45, "409", "Cluster exists", "already there")))
	f.Add(400, "application/problem+json", []byte(`{"type":"https://astra.netapp.io/problems/5","title":"Invalid query parameters","invalidParams":[{"name":"filter","reason":"bad"}]}`))
	f.Add(502, "text/html", []byte("<html><head><title>502 Bad Gateway</title></head><body><script>x()</script>nginx</body></html>"))
	f.Add(503, "", []byte("upstream connect error \x00\x1b[31m"))
	f.Add(500, "application/json", []byte(`{"type":1,"title":["x"],"invalidFields":"no"}`))
	f.Add(429, "application/problem+json", []byte(`{"type":"about:blank","status":429}`))
	f.Add(404, "text/plain", []byte{0xff, 0xfe, 0xfd})
	f.Fuzz(func(t *testing.T, status int, contentType string, body []byte) {
		header := http.Header{"Content-Type": []string{contentType}}
		e := newAPIError("GET", "/accounts/a/topology/v1/clouds", status, header, body)
		msg := e.Error()
		if !strings.HasPrefix(msg, "GET /accounts/a/topology/v1/clouds: "+strconv.Itoa(status)) {
			t.Fatalf("message does not start with the call and status: %q", msg)
		}
		if !utf8.ValidString(msg) {
			t.Fatalf("message is not valid UTF-8: %q", msg)
		}
		for _, r := range msg {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				t.Fatalf("message holds control character %U: %q", r, msg)
			}
		}
		for _, s := range []string{e.Title, e.Detail, e.Body, e.CorrelationID, e.Type} {
			if utf8.RuneCountInString(s) > 1000 {
				t.Fatalf("a member of %d characters was kept; answers are cut to a readable excerpt", utf8.RuneCountInString(s))
			}
		}
		if e.Problem < 0 {
			t.Fatalf("negative problem number %d", e.Problem)
		}
	})
}

// FuzzObjectDecoding: any answer body decodes into each object type or is refused with an
// error (never a panic); what decodes encodes again, and once normalised (an empty label
// list becomes no metadata) encoding is a fixed point, so what an update sends back reads
// the same again: members the client does not model are kept, not lost or doubled.
func FuzzObjectDecoding(f *testing.F) {
	f.Add([]byte(cloudJSON))
	f.Add([]byte(fullClusterJSON))
	f.Add([]byte(`{"id":"x","name":"n","keyStore":{"base64":"e30="},"metadata":{"labels":[{"name":"a","value":"b"}]},"future":{"a":[1,2]}}`))
	f.Add([]byte(`{"id":7,"managedState":["x"],"metadata":"oops","stateUnready":null}`))
	f.Add([]byte(`{"Name":"a","name":"b","NAME":"c"}`))
	f.Add([]byte(`[1,2,3]`))
	f.Add([]byte(`<html>maintenance</html>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		resp := &response{status: 200, header: http.Header{"Content-Type": []string{"application/json"}}, body: body}
		roundTrip[Cloud](t, resp)
		roundTrip[Cluster](t, resp)
		roundTrip[Credential](t, resp)
		roundTrip[ManagedCluster](t, resp)
		roundTrip[StorageClass](t, resp)
		if _, err := decodeItem[Cluster](body, []string{"id", "name", "state"}); err == nil && !json.Valid(body) {
			t.Fatalf("decodeItem accepted invalid JSON %q", body)
		}
	})
}

func roundTrip[T any](t *testing.T, resp *response) {
	t.Helper()
	var first T
	if err := decodeJSON("GET", "/x", resp, &first); err != nil {
		if err.Error() == "" {
			t.Fatal("empty error")
		}
		return
	}
	once, err := json.Marshal(first)
	if err != nil {
		t.Fatalf("%T decoded from %q but does not encode: %v", first, resp.body, err)
	}
	twice := reencode[T](t, once)
	if thrice := reencode[T](t, twice); !bytes.Equal(twice, thrice) {
		t.Fatalf("%T: encoding is not stable:\n%s\n%s", first, twice, thrice)
	}
}

func reencode[T any](t *testing.T, encoded []byte) []byte {
	t.Helper()
	var v T
	if err := json.Unmarshal(encoded, &v); err != nil {
		t.Fatalf("%T: its own encoding %s does not decode: %v", v, encoded, err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T: decoded from its own encoding %s but does not encode: %v", v, encoded, err)
	}
	return out
}

// FuzzFilterEncoder: a filter is encoded only when the API's grammar accepts it, and then
// the query decodes back to exactly "<field> <op> '<value>'"; anything else is an error
// that names the filter, never a query the server would misread.
func FuzzFilterEncoder(f *testing.F) {
	f.Add("name", "eq", "prod-east")
	f.Add("metadata.creationTimestamp", "gt", "2024-02-01T00:00:00Z")
	f.Add("labels[*].name", "in", "a,b")
	f.Add("name", "eq", "it's")
	f.Add("name", "like", "x")
	f.Add("na me", "eq", "x")
	f.Add("name", "eq", "ünïcode")
	f.Add("name", "eq", "a&filter=id eq '1'")
	f.Fuzz(func(t *testing.T, field, op, value string) {
		q, err := ListOptions{Filters: []Filter{{Field: field, Op: op, Value: value}}}.query()
		if err != nil {
			if !strings.HasPrefix(err.Error(), "astra: ") {
				t.Fatalf("error %q does not say where it comes from", err)
			}
			return
		}
		parsed, perr := url.ParseQuery(encodeQuery(q))
		if perr != nil {
			t.Fatalf("encoded query %q does not parse: %v", encodeQuery(q), perr)
		}
		got := parsed["filter"]
		if len(got) != 1 || len(parsed) != 1 {
			t.Fatalf("one filter encoded as %v", parsed)
		}
		gotField, rest, _ := strings.Cut(got[0], " ")
		gotOp, quoted, _ := strings.Cut(rest, " ")
		if gotField != field || gotOp != op || quoted != "'"+value+"'" || strings.Count(quoted, "'") != 2 {
			t.Fatalf("filter (%q, %q, %q) reads back as %q", field, op, value, got[0])
		}
	})
}
