package astra

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

const clustersAt = accountPrefix + "/topology/v1/clouds/" + testCloud + "/clusters"

func TestProblemBodiesDecode(t *testing.T) {
	cases := []struct {
		name   string
		status int
		ctype  string
		body   string
		check  func(*APIError) string
	}{
		{"string status with invalid fields", 400, "application/problem+json",
			`{"type":"https://astra.netapp.io/problems/9","title":"Invalid fields","detail":"The supplied fields are invalid.",
			  "status":"400","correlationID":"c-1","invalidFields":[{"name":"credentialID","reason":"not found"}]}`,
			func(e *APIError) string {
				if e.Problem != 9 || e.Title != "Invalid fields" || e.CorrelationID != "c-1" ||
					len(e.InvalidFields) != 1 || e.InvalidFields[0] != (InvalidField{"credentialID", "not found"}) {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
		{"numeric status, invalid params, schema failure", 400, "application/json",
			`{"type":"https://astra.netapp.io/problems/5","title":"Invalid query parameters","detail":"d","status":400,
			  "invalidParams":[{"name":"filter","reason":"bad"}],"schemaValidationFailure":"version: not in enum"}`,
			func(e *APIError) string {
				if e.Problem != 5 || len(e.InvalidParams) != 1 || e.SchemaValidationFailure != "version: not in enum" {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
		{"ill-typed member loses only itself", 409, "application/problem+json",
			`{"type":"https://astra.netapp.io/problems/45","title":"Cluster exists","detail":"d","invalidFields":["x"]}`,
			func(e *APIError) string {
				if e.Problem != 45 || e.Title != "Cluster exists" || e.InvalidFields != nil {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
		{"proxy HTML page", 502, "text/html; charset=utf-8",
			`<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
			 <body><h1>Bad&nbsp;Gateway</h1><script>alert(1)</script><p>The upstream &amp; its friends are down.</p></body></html>`,
			func(e *APIError) string {
				if e.Problem != 0 || e.Body != "502 Bad Gateway: Bad Gateway The upstream & its friends are down." {
					return fmt.Sprintf("body %q", e.Body)
				}
				return ""
			}},
		{"plain text", 503, "text/plain", "upstream connect error\r\nor disconnect\x00",
			func(e *APIError) string {
				if e.Body != "upstream connect error or disconnect" {
					return fmt.Sprintf("body %q", e.Body)
				}
				return ""
			}},
		{"malformed JSON", 500, "application/json", `{"type":"https://astra.netapp.io/problems/64","title":`,
			func(e *APIError) string {
				if e.Problem != 0 || e.Body != `{"type":"https://astra.netapp.io/problems/64","title":` {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
		{"foreign JSON", 404, "application/json", `{"message":"no route","code":404}`,
			func(e *APIError) string {
				if e.Problem != 0 || e.Title != "" || e.Body != `{"message":"no route","code":404}` {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
		{"long body cut to 300 characters", 500, "text/plain", strings.Repeat("é", 1000),
			func(e *APIError) string {
				if n := len([]rune(e.Body)); n != 300 || !strings.HasSuffix(e.Body, "…") {
					return fmt.Sprintf("excerpt of %d characters", n)
				}
				return ""
			}},
		{"empty body", 401, "", "",
			func(e *APIError) string {
				if e.Body != "" || e.Title != "" {
					return fmt.Sprintf("%+v", e)
				}
				return ""
			}},
	}
	for _, c := range cases {
		h := http.Header{}
		h.Set("Content-Type", c.ctype)
		e := newAPIError("POST", clustersAt, c.status, h, []byte(c.body))
		if e.StatusCode != c.status || e.Method != "POST" || e.Path != clustersAt {
			t.Errorf("%s: envelope %+v", c.name, e)
		}
		if msg := c.check(e); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
	}
}

func TestAPIErrorMessages(t *testing.T) {
	cases := []struct {
		err  *APIError
		want string
	}{
		{&APIError{Method: "POST", Path: "/accounts/a/topology/v1/clouds/c/clusters", StatusCode: 409, Problem: 45,
			Title: "Cluster exists", Detail: "The cluster already exists.", CorrelationID: "c-9"},
			"POST /accounts/a/topology/v1/clouds/c/clusters: 409 Cluster exists (problem 45): The cluster already exists. [correlation ID c-9]"},
		{&APIError{Method: "PUT", Path: "/p", StatusCode: 400, Problem: 9, Title: "Invalid fields", Detail: "Invalid fields",
			InvalidFields: []InvalidField{{"name", "too long"}, {"accHost", ""}}},
			"PUT /p: 400 Invalid fields (problem 9); invalid fields: name (too long), accHost"},
		{&APIError{Method: "GET", Path: "/p", StatusCode: 400, InvalidParams: []InvalidField{{"filter", "bad"}}, SchemaValidationFailure: "x"},
			"GET /p: 400 Bad Request; invalid parameters: filter (bad); schema validation: x"},
		{&APIError{Method: "GET", Path: "/p", StatusCode: 502, Body: "502 Bad Gateway"},
			"GET /p: 502 Bad Gateway: 502 Bad Gateway"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

func TestErrorPredicates(t *testing.T) {
	wrap := func(status, problem int) error {
		return fmt.Errorf("reading: %w", &APIError{StatusCode: status, Problem: problem})
	}
	cases := []struct {
		err                                                  error
		notFound, conflict, unauthorized, forbidden, precond bool
		problem                                              int
	}{
		{wrap(404, 2), true, false, false, false, false, 2},
		{wrap(409, 45), false, true, false, false, false, 45},
		{wrap(401, 4), false, false, true, false, false, 4},
		{wrap(403, 11), false, false, false, true, false, 11},
		{wrap(412, 38), false, false, false, false, true, 38},
		{errors.New("plain"), false, false, false, false, false, 0},
		{nil, false, false, false, false, false, 0},
	}
	for i, c := range cases {
		got := [5]bool{IsNotFound(c.err), IsConflict(c.err), IsUnauthorized(c.err), IsForbidden(c.err), IsPreconditionFailed(c.err)}
		want := [5]bool{c.notFound, c.conflict, c.unauthorized, c.forbidden, c.precond}
		if got != want || ProblemNumber(c.err) != c.problem {
			t.Errorf("case %d: predicates %v want %v, problem %d want %d", i, got, want, ProblemNumber(c.err), c.problem)
		}
	}
}

func TestUnknownOutcomeErrorWraps(t *testing.T) {
	inner := &APIError{Method: "POST", Path: "/p", StatusCode: 504}
	err := fmt.Errorf("create: %w", &UnknownOutcomeError{Method: "POST", Path: "/p", Err: inner})
	if !IsUnknownOutcome(err) || IsUnknownOutcome(inner) {
		t.Fatal("IsUnknownOutcome must see through wrapping and only match the outcome error")
	}
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 504 {
		t.Fatal("the 504 must stay reachable")
	}
	timeout := &UnknownOutcomeError{Method: "POST", Path: "/p", Err: context.DeadlineExceeded}
	if !errors.Is(timeout, context.DeadlineExceeded) {
		t.Fatal("a timed-out POST must still be a deadline error")
	}
	want := "POST /p: the request was sent but no answer says whether Astra Control acted on it; look for the object before trying again: context deadline exceeded"
	if timeout.Error() != want {
		t.Fatalf("got %s", timeout.Error())
	}
}
