package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

func TestAddWaitError(t *testing.T) {
	const aftermath = "The cluster is in state."
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"terminal state with reasons",
			&astra.TerminalStateError{What: "cluster c1", State: "failed", Reasons: []string{"r1", "r2"}},
			"Astra Control reports cluster c1 as failed: r1; r2.\n\n" + aftermath},
		{"terminal state without reasons",
			&astra.TerminalStateError{What: "cluster c1", State: "failed"},
			"Astra Control reports cluster c1 as failed: the service gave no reason.\n\n" + aftermath},
		{"timeout",
			&astra.WaitTimeoutError{What: "cluster c1", LastState: "state pending", Err: context.DeadlineExceeded},
			"Timed out after 30m0s waiting for cluster c1 (last seen: state pending). Raise the timeout in the resource's " +
				"timeouts attribute if it needs longer.\n\n" + aftermath},
		{"cancelled before any answer",
			&astra.WaitTimeoutError{What: "the object", Err: context.Canceled},
			"The wait for the object was cancelled (no state seen yet).\n\n" + aftermath},
		{"failed read",
			errors.New("GET /x: 500 Internal error"),
			"Reading the object while waiting failed: GET /x: 500 Internal error\n\n" + aftermath},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			addWaitError(&diags, "Cluster did not reach running", c.err, 30*time.Minute, aftermath)
			if len(diags) != 1 || diags[0].Summary() != "Cluster did not reach running" || diags[0].Detail() != c.want {
				t.Fatalf("got %v\nwant detail %q", diags, c.want)
			}
		})
	}
}

func TestAddAPIErrorAttachesInvalidFields(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &astra.APIError{Method: "POST", Path: "/p", StatusCode: 400, Title: "Invalid",
		InvalidFields: []astra.InvalidField{{Name: "credentialID", Reason: "no credential has this ID"}, {Name: "unknown", Reason: "x"}}})
	var diags diag.Diagnostics
	addAPIError(&diags, "Cannot add the cluster", err, clusterAPIFields)
	if len(diags) != 1 {
		t.Fatalf("diagnostics: %v", diags)
	}
	withPath, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !withPath.Path().Equal(path.Root("credential_id")) {
		t.Fatalf("diagnostic not attached to credential_id: %#v", diags[0])
	}

	diags = nil
	addAPIError(&diags, "Cannot read the cluster", errors.New("dial tcp: refused"), nil)
	if len(diags) != 1 || diags[0].Detail() != "dial tcp: refused" {
		t.Fatalf("plain error: %v", diags)
	}
}

func TestCreatedOrAdopted(t *testing.T) {
	lost := &astra.UnknownOutcomeError{Method: "POST", Path: "/core/v1/credentials", Err: errors.New("connection reset")}
	created, adopted := &astra.Cloud{ID: "created"}, &astra.Cloud{ID: "adopted"}
	refused := &astra.APIError{Method: "POST", Path: "/topology/v1/clouds", StatusCode: 409, Problem: 140, Title: "Duplicate cloud name"}
	cases := []struct {
		name      string
		obj       *astra.Cloud
		err       error
		found     *astra.Cloud
		findErr   error
		want      *astra.Cloud
		wantFind  bool
		wantError string
	}{
		{"created", created, nil, nil, nil, created, false, ""},
		{"refused", nil, refused, nil, nil, nil, false, "Cannot create the cloud"},
		{"lost, then found", nil, lost, adopted, nil, adopted, true, ""},
		{"lost, not found", nil, lost, nil, nil, nil, true, "Outcome of creating cloud x is unknown"},
		{"lost, look-up failed", nil, lost, nil, errors.New("503"), nil, true, "looking for it afterwards failed: 503"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			looked := false
			got := createdOrAdopted(context.Background(), &diags, "cloud x", "Cannot create the cloud", nil, c.obj, c.err,
				func() (*astra.Cloud, error) { looked = true; return c.found, c.findErr })
			if got != c.want || looked != c.wantFind {
				t.Fatalf("got %v (looked %v), want %v (looked %v)", got, looked, c.want, c.wantFind)
			}
			text := ""
			for _, d := range diags {
				text += d.Summary() + ": " + d.Detail() + "\n"
			}
			if (c.wantError == "") != !diags.HasError() || !strings.Contains(text, c.wantError) {
				t.Fatalf("diagnostics %q, want an error containing %q", text, c.wantError)
			}
		})
	}
}
