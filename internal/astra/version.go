package astra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// memberGate says which resource version first published a request member.
type memberGate struct{ member, since string }

// What each published version added to the request bodies (shared/spec, §9 of the research
// notes). Versions 1.0-1.2 were never published; they are held to the 1.3 set, the oldest
// schema, whose version enum accepts them.
var (
	clusterPostGates = []memberGate{{"privateRouteID", "1.4"}, {"connectorCapabilities", "1.5"}}
	clusterPutGates  = []memberGate{{"connectorCapabilities", "1.5"}, {"acpVersion", "1.6"}, {"managedStateDetails", "1.7"}}

	managedClusterPostGates = []memberGate{{"defaultBucketID", "1.7"}}
	managedClusterPutGates  = []memberGate{{"acpVersion", "1.3"}, {"defaultBucketID", "1.7"}, {"managedStateDetails", "1.7"}}
)

// versionAtLeast compares dotted resource versions numerically ("1.10" > "1.9"). The client
// does not import internal/apispec for this: that would embed the OpenAPI documents in the
// provider binary.
func versionAtLeast(version, minimum string) bool {
	a, b := strings.Split(version, "."), strings.Split(minimum, ".")
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := versionPart(a, i), versionPart(b, i)
		if x != y {
			return x > y
		}
	}
	return true
}

func versionPart(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, _ := strconv.Atoi(parts[i])
	return n
}

// refuseNewerMembers fails when a create body uses a member its version does not have: the
// server would answer 400 anyway, and the caller deserves to know which version has it.
func refuseNewerMembers(resource, version string, members map[string]json.RawMessage, gates []memberGate) error {
	for _, g := range gates {
		if _, ok := members[g.member]; ok && !versionAtLeast(version, g.since) {
			return fmt.Errorf("astra: %s resource version %s has no %s (added in %s)", resource, version, g.member, g.since)
		}
	}
	return nil
}

// dropNewerMembers removes, from an update body, members that were read from the server
// but that the version being sent does not define (a 1.7 answer PUT back as 1.5).
func dropNewerMembers(version string, members map[string]json.RawMessage, gates []memberGate) {
	for _, g := range gates {
		if !versionAtLeast(version, g.since) {
			delete(members, g.member)
		}
	}
}

// members encodes v (a struct) and returns its top-level members for editing.
func members(v any) (map[string]json.RawMessage, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	err = json.Unmarshal(raw, &m)
	return m, err
}

// dropFalseAccHost removes accHost when it is "false": the schema allows only "true", and
// absence already means "not the host".
func dropFalseAccHost(m map[string]json.RawMessage) {
	if raw, ok := m["accHost"]; ok {
		var b Bool
		if json.Unmarshal(raw, &b) == nil && !b {
			delete(m, "accHost")
		}
	}
}

// VersionNotSpokenError says the service refused a body because of its resource version:
// the configured cluster API version is newer than the service's. Served is the newest
// version the service speaks ("" when it could not be learned).
type VersionNotSpokenError struct {
	Sent, Served string
	Err          error
}

func (e *VersionNotSpokenError) Error() string { return e.Err.Error() }
func (e *VersionNotSpokenError) Unwrap() error { return e.Err }

// Spoken lists the client's cluster versions up to Served (all of them when Served is "").
func (e *VersionNotSpokenError) Spoken() []string {
	var out []string
	for _, v := range ClusterVersions {
		if e.Served == "" || versionAtLeast(e.Served, v) {
			out = append(out, v)
		}
	}
	return out
}

// ExplainVersion turns err, when it is a 400 refusing the `version` member of a body the
// client sent, into a *VersionNotSpokenError naming the version the service speaks,
// learned with one read (the version its clusters collection names). Any other error is
// returned as it is.
func (c *Client) ExplainVersion(ctx context.Context, err error) error {
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest || !refusesVersion(apiErr) {
		return err
	}
	served, _ := c.ServedClusterVersion(ctx)
	return &VersionNotSpokenError{Sent: c.clusterVersion, Served: served, Err: err}
}

// refusesVersion reports a schema failure or an invalid field that names the version member.
func refusesVersion(e *APIError) bool {
	if strings.HasPrefix(e.SchemaValidationFailure, "/version") || strings.Contains(e.SchemaValidationFailure, "; /version") {
		return true
	}
	for _, f := range e.InvalidFields {
		if f.Name == "version" {
			return true
		}
	}
	return false
}

// ServedClusterVersion is the cluster resource version the service's clusters collection
// names: the newest it speaks.
func (c *Client) ServedClusterVersion(ctx context.Context) (string, error) {
	resp, err := c.do(ctx, request{method: http.MethodGet, path: topologyClustersPath, query: "limit=1", resource: clusterResource})
	if err != nil {
		return "", err
	}
	var env struct {
		Version string `json:"version"`
	}
	if err := decodeJSON(http.MethodGet, c.accountPath+topologyClustersPath, resp, &env); err != nil {
		return "", err
	}
	if !isClusterVersion(env.Version) {
		return "", fmt.Errorf("astra: the clusters collection names no known version (%q)", env.Version)
	}
	return env.Version, nil
}
