package astra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

func TestListOptionsQuery(t *testing.T) {
	cases := []struct {
		name    string
		opts    ListOptions
		want    string
		wantErr string
	}{
		{"empty", ListOptions{}, "", ""},
		{"filter uses %20", ListOptions{Filters: []Filter{Eq("name", "GKE 21")}}, "filter=name%20eq%20%27GKE%2021%27", ""},
		{"nested field and every operator",
			ListOptions{Filters: []Filter{{"metadata.labels[*].name", "eq", "x"}, {"a", "lt", "1"}, {"a", "gt", "1"}, {"a", "lte", "1"}, {"a", "gte", "1"}, {"a", "in", "x,y"}}},
			"filter=metadata.labels%5B%2A%5D.name%20eq%20%27x%27&filter=a%20lt%20%271%27&filter=a%20gt%20%271%27&filter=a%20lte%20%271%27&filter=a%20gte%20%271%27&filter=a%20in%20%27x%2Cy%27", ""},
		{"include and limit", ListOptions{Include: []string{"id", "name"}, Limit: 10}, "include=id%2Cname&limit=10", ""},
		{"quote in value", ListOptions{Filters: []Filter{Eq("name", "o'brien")}}, "", "the value of the name filter holds characters the API cannot filter on"},
		{"non-ASCII value", ListOptions{Filters: []Filter{Eq("name", "café")}}, "", "cannot filter on"},
		{"empty value", ListOptions{Filters: []Filter{Eq("name", "")}}, "", "cannot filter on"},
		{"bad operator", ListOptions{Filters: []Filter{{"name", "ne", "x"}}}, "", `filter operator "ne" is not one of`},
		{"bad field", ListOptions{Filters: []Filter{{"na me", "eq", "x"}}}, "", `filter field "na me" is not a field name`},
		{"bad include", ListOptions{Include: []string{"metadata.labels"}}, "", `include field "metadata.labels" is not a field name`},
		{"negative limit", ListOptions{Limit: -1}, "", "limit -1 is negative"},
	}
	for _, c := range cases {
		q, err := c.opts.query()
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "brien") {
				t.Errorf("%s: the refused value is echoed", c.name)
			}
			continue
		}
		if err != nil || encodeQuery(q) != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, encodeQuery(q), err, c.want)
		}
	}
}

func TestListFollowsContinueUnlessLimited(t *testing.T) {
	pages := map[string]string{
		"":   `{"items":[` + credentialJSON + `],"metadata":{"continue":"cGFnZTI="}}`,
		"p2": `{"items":[` + credentialJSON + `],"metadata":{"continue":"cGFnZTM="}}`,
		"p3": `{"items":[` + credentialJSON + `],"metadata":{}}`,
	}
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		key := map[string]string{"": "", "cGFnZTI=": "p2", "cGFnZTM=": "p3"}[r.URL.Query().Get("continue")]
		reply(w, 200, "application/json", pages[key])
	})
	c := f.client(t)
	creds, err := c.ListCredentials(context.Background(), ListOptions{})
	if err != nil || len(creds) != 3 || f.count() != 3 {
		t.Fatalf("got %d items in %d requests: %v", len(creds), f.count(), err)
	}
	if q := f.requests()[2].RawQuery; q != "continue=cGFnZTM%3D" {
		t.Fatalf("third request query %q", q)
	}
	limited, err := c.ListCredentials(context.Background(), ListOptions{Limit: 1})
	if err != nil || len(limited) != 1 || f.count() != 4 {
		t.Fatalf("a limited list must not page: %d items, %d requests, %v", len(limited), f.count(), err)
	}
}

func TestListStopsOnARepeatedToken(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		reply(w, 200, "application/json", `{"items":[`+cloudJSON+`],"metadata":{"continue":"c2FtZQ=="}}`)
	})
	clouds, err := f.client(t).ListClouds(context.Background(), ListOptions{})
	if err != nil || len(clouds) != 2 || f.count() != 2 {
		t.Fatalf("got %d clouds in %d requests: %v", len(clouds), f.count(), err)
	}
}

func TestListItemShapes(t *testing.T) {
	cases := []struct {
		name, body string
		include    []string
		wantErr    string
		wantLen    int
	}{
		{"null items", `{"items":null,"metadata":{}}`, nil, "", 0},
		{"no metadata, top-level type", `{"type":"application/astra-clouds","version":"1.1","items":[` + cloudJSON + `]}`, nil, "", 1},
		{"array without include", `{"items":[["a"]]}`, nil, "item 0: an array item, but no include fields were asked for", 0},
		{"wrong arity", `{"items":[["a","b"]]}`, []string{"id"}, "item 0: 2 values for 1 include fields", 0},
		{"not an object", `{"items":[42]}`, nil, "item 0:", 0},
	}
	for _, c := range cases {
		f := newFake(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { reply(w, 200, "application/json", c.body) })
		clouds, err := f.client(t).ListClouds(context.Background(), ListOptions{Include: c.include})
		switch {
		case c.wantErr == "" && (err != nil || len(clouds) != c.wantLen):
			t.Errorf("%s: %d items, %v", c.name, len(clouds), err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%s: err %v, want %q", c.name, err, c.wantErr)
		}
	}
}

var jsonHeader = http.Header{"Content-Type": {"application/json"}}

func TestEachItemOfDecodesACollectionAnswerItemByItem(t *testing.T) {
	tests := []struct {
		name, body string
		items      []string
		next       string
		err        string
	}{
		{name: "items then metadata", body: `{"items":[{"id":"a"},{"id":"b"}],"metadata":{"continue":"t1"}}`,
			items: []string{`{"id":"a"}`, `{"id":"b"}`}, next: "t1"},
		{name: "metadata first, other keys skipped", body: ` {"metadata":{"continue":"t2","labels":[]},"kind":{"x":[1]},"items":[ {"id" : "a"} ]} `,
			items: []string{`{"id" : "a"}`}, next: "t2"},
		{name: "no items", body: `{"items":null,"metadata":{}}`},
		{name: "empty", body: `{}`},
		{name: "not an object", body: `[{"id":"a"}]`, err: "GET /x: decoding the answer: a collection answer is an object, got ["},
		{name: "items not an array", body: `{"items":{"id":"a"}}`, err: "GET /x: decoding the answer: items is not an array: {"},
		{name: "truncated", body: `{"items":[{"id":"a"},{"id":`, err: "GET /x: decoding the answer: unexpected EOF"},
		{name: "trailing text", body: `{"items":[]} x`, err: "GET /x: decoding the answer: invalid character after top-level value"},
		{name: "bad metadata", body: `{"metadata":"t"}`, err: "GET /x: decoding the answer: json: cannot unmarshal string into Go value of type struct { Continue string \"json:\\\"continue\\\"\" }"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			next, err := eachItemOf("/x", jsonHeader, strings.NewReader(tt.body), func(raw json.RawMessage) error {
				got = append(got, string(raw))
				return nil
			})
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if next != tt.next || fmt.Sprint(got) != fmt.Sprint(tt.items) {
				t.Fatalf("items %q, continue %q; want %q, %q", got, next, tt.items, tt.next)
			}
			// The same as decoding the whole answer at once.
			var whole struct {
				Items    []json.RawMessage `json:"items"`
				Metadata struct {
					Continue string `json:"continue"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal([]byte(tt.body), &whole); err != nil {
				t.Fatal(err)
			}
			if len(whole.Items) != len(got) || whole.Metadata.Continue != next {
				t.Fatalf("whole decode: %d items, continue %q", len(whole.Items), whole.Metadata.Continue)
			}
		})
	}
}

func TestEachItemOfStopsAtTheVisitorsErrorUnwrapped(t *testing.T) {
	stop := errors.New("item 0: bad")
	visited := 0
	_, err := eachItemOf("/x", jsonHeader, strings.NewReader(`{"items":[{"id":"a"},{"id":"b"}]}`),
		func(json.RawMessage) error { visited++; return stop })
	var decodeErr *streamDecodeError
	if !errors.As(err, &decodeErr) || !errors.Is(decodeErr.error, stop) || decodeErr.Error() != stop.Error() || visited != 1 {
		t.Fatalf("error %v after %d items, want %v after 1", err, visited, stop)
	}
}

func TestEachItemOfReturnsAReadErrorAsItIs(t *testing.T) {
	lost := errors.New("connection reset by peer")
	body := io.MultiReader(strings.NewReader(`{"items":[{"id":"a"},`), iotest.ErrReader(lost))
	visited := 0
	_, err := eachItemOf("/x", jsonHeader, body, func(json.RawMessage) error { visited++; return nil })
	var decodeErr *streamDecodeError
	if !errors.Is(err, lost) || errors.As(err, &decodeErr) || err.Error() != lost.Error() || visited != 1 {
		t.Fatalf("error %v after %d items, want %v after 1", err, visited, lost)
	}
}

func TestEachItemOfRefusesAPage(t *testing.T) {
	_, err := eachItemOf("/x", http.Header{"Content-Type": {"text/html"}}, strings.NewReader(`<html>login</html>`), func(json.RawMessage) error { t.Fatal("visited"); return nil })
	if err == nil || !strings.Contains(err.Error(), `GET /x: expected a JSON answer, got "text/html"`) {
		t.Fatalf("error %v", err)
	}
}

// TestEachItemOfMatchesDecodingTheWholeAnswer sends random collection answers, whole and
// cut short, to eachItemOf and to json.Unmarshal of the whole answer, and compares.
func TestEachItemOfMatchesDecodingTheWholeAnswer(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("random seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	value := func() any {
		switch rng.Intn(4) {
		case 0:
			return rng.Intn(1000)
		case 1:
			return fmt.Sprintf("v%d \"q\" \\ é", rng.Intn(9))
		case 2:
			return []any{rng.Intn(3) == 0, nil, map[string]any{"k": rng.Float64()}}
		}
		return map[string]any{"labels": []any{map[string]any{"name": "a", "value": "b"}}}
	}
	for range 500 {
		var items []any
		for i := range rng.Intn(6) {
			items = append(items, map[string]any{"id": fmt.Sprint(i), "x": value()})
		}
		members := map[string]any{"items": items, "metadata": map[string]any{"continue": fmt.Sprint(rng.Intn(3))}}
		if rng.Intn(3) == 0 {
			members["other"] = value()
		}
		if rng.Intn(5) == 0 {
			members["items"] = nil
		}
		body, err := json.MarshalIndent(members, "", strings.Repeat(" ", rng.Intn(3)))
		if err != nil {
			t.Fatal(err)
		}
		if rng.Intn(4) == 0 {
			body = body[:rng.Intn(len(body))]
		}
		var whole struct {
			Items    []json.RawMessage `json:"items"`
			Metadata struct {
				Continue string `json:"continue"`
			} `json:"metadata"`
		}
		wantErr := json.Unmarshal(body, &whole)
		var got []string
		next, err := eachItemOf("/x", jsonHeader, strings.NewReader(string(body)), func(raw json.RawMessage) error {
			got = append(got, string(raw))
			return nil
		})
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("seed %d: %s\neachItemOf: %v; json.Unmarshal: %v", seed, body, err, wantErr)
		}
		if err != nil {
			continue
		}
		var want []string
		for _, raw := range whole.Items {
			want = append(want, string(raw))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || next != whole.Metadata.Continue {
			t.Fatalf("seed %d: %s\neachItemOf: %q, %q; json.Unmarshal: %q, %q", seed, body, got, next, want, whole.Metadata.Continue)
		}
	}
}
