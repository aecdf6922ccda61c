package astrasim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// members are the members of an object that no published release of its resource has:
// what a newer Astra Control would add. Lenient mode stores them, answers them back, and
// replaces them on every PUT with those the PUT carries, as a newer server's full-object
// PUT would, so a client that does not send back what it read loses them (that is what the
// provider's round-trip tests look for). Values are kept as raw JSON, byte for byte.
type members map[string]json.RawMessage

var knownCache sync.Map // resource -> map[string]bool

// knownMembers is every member any published release, version or body kind of resource
// has, plus the undocumented ones real clients send.
func knownMembers(resource string) map[string]bool {
	if v, ok := knownCache.Load(resource); ok {
		known, _ := v.(map[string]bool)
		return known
	}
	known := map[string]bool{}
	for _, f := range undocumentedFields[resource] {
		known[f] = true
	}
	for _, release := range apispec.Releases {
		versions, err := apispec.AcceptedVersions(release, resource)
		if err != nil {
			continue
		}
		for _, v := range versions {
			for _, kind := range []string{apispec.GetResponse, apispec.PostRequest, apispec.PostResponse, apispec.PutRequest} {
				if sc, ok := lookupSchema(release, resource, v, kind); ok {
					for name := range sc.Properties {
						known[name] = true
					}
				}
			}
		}
	}
	knownCache.Store(resource, known)
	return known
}

// takeUnknown removes from candidate (the decoded body) the members no release knows and
// returns them as they were sent (body is the raw request body, already known to be an
// object), compacted.
func takeUnknown(resource string, candidate map[string]any, body []byte) members {
	known := knownMembers(resource)
	var raw map[string]json.RawMessage
	var out members
	for name := range candidate {
		if known[name] {
			continue
		}
		if raw == nil {
			if err := json.Unmarshal(body, &raw); err != nil {
				return nil // decoded as an object a moment ago
			}
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw[name]); err != nil {
			continue
		}
		if out == nil {
			out = members{}
		}
		out[name] = compact.Bytes()
		delete(candidate, name)
	}
	return out
}

// addTo puts the members into a rendered object; a known member always wins.
func (u members) addTo(m map[string]any) map[string]any {
	for name, raw := range u {
		if _, taken := m[name]; !taken {
			m[name] = raw
		}
	}
	return m
}

// withoutUnknown is m less the members no release of resource knows, for checking an
// answer against the published schema.
func withoutUnknown(resource string, m map[string]any) map[string]any {
	known := knownMembers(resource)
	out := make(map[string]any, len(m))
	for k, v := range m {
		if known[k] {
			out[k] = v
		}
	}
	return out
}

// SetUnknownMember stores on the cluster or credential id a member no published release
// has, as a newer Astra Control (or another client of one) would write it; value is JSON.
// Only a lenient simulator keeps and answers such members.
func (s *Sim) SetUnknownMember(id, name string, value json.RawMessage) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.opts.Lenient {
		return fmt.Errorf("unknown members need a lenient simulator")
	}
	if !json.Valid(value) {
		return fmt.Errorf("member %s: value is not JSON", name)
	}
	target, resource, err := s.unknownOf(id)
	if err != nil {
		return err
	}
	if knownMembers(resource)[name] {
		return fmt.Errorf("%s is a member of a published %s schema", name, resource)
	}
	if *target == nil {
		*target = members{}
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, value); err != nil {
		return fmt.Errorf("member %s: %w", name, err)
	}
	(*target)[name] = compact.Bytes()
	return nil
}

// UnknownMembers is a copy of the members no published release has that the simulator
// stores for the cluster or credential id.
func (s *Sim) UnknownMembers(id string) (map[string]json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	target, _, err := s.unknownOf(id)
	if err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(*target))
	for k, v := range *target {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out, nil
}

func (s *Sim) unknownOf(id string) (*members, string, error) {
	if c := s.st.Clusters[id]; c != nil {
		return &c.Unknown, apispec.Cluster, nil
	}
	if c := s.st.Credentials[id]; c != nil {
		return &c.Unknown, apispec.Credential, nil
	}
	return nil, "", fmt.Errorf("no cluster or credential has the ID %s", id)
}
