// Package apispec holds NetApp's published Astra Control OpenAPI documents (five releases,
// trimmed to the paths this provider uses: clusters and their clouds, credentials, storage
// classes, buckets, apps, their schedules, snapshots and backups, execution hooks and hook
// sources, and a managed cluster's namespaces) and validates JSON bodies against them.
//
// Both the simulator and the client's tests use it, so neither has to trust the other:
// a body is right when the published schema says so.
package apispec

import (
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

//go:embed openapi/*.json
var files embed.FS

// Releases lists the API releases with a published document, oldest first.
var Releases = []string{"22.11", "23.05", "23.07", "23.10", "24.02"}

// DefaultRelease is Astra Control Service's release, whose cluster resource version is 1.5.
const DefaultRelease = "23.07"

// Resource names as they appear in schema names and media types.
const (
	Cloud          = "cloud"
	Cluster        = "cluster"
	ManagedCluster = "managedCluster"
	Credential     = "credential"
	StorageClass   = "storageClass"
	Bucket         = "bucket"
	App            = "app"
	Schedule       = "schedule"
	Namespace      = "namespace"
	AppSnap        = "appSnap"
	AppBackup      = "appBackup"
	ExecutionHook  = "executionHook"
	HookSource     = "hookSource"
)

// Body kinds, the suffix of every schema name.
const (
	GetResponse  = "get_response_body"
	ListResponse = "list_response_body"
	PostRequest  = "post_request_body"
	PostResponse = "post_response_body"
	PutRequest   = "put_request_body"
)

var (
	mu   sync.Mutex
	docs = map[string]*openapi3.T{}
)

// Load returns the parsed document of a release. Documents are parsed once and shared;
// callers must not modify them.
func Load(release string) (*openapi3.T, error) {
	mu.Lock()
	defer mu.Unlock()
	if doc, ok := docs[release]; ok {
		return doc, nil
	}
	if !IsRelease(release) {
		return nil, fmt.Errorf("unknown API release %q; known releases: %s", release, strings.Join(Releases, ", "))
	}
	raw, err := files.ReadFile("openapi/astra-clusters-" + release + ".json")
	if err != nil {
		return nil, err
	}
	// doc.Validate is deliberately skipped: the published list schemas have an anyOf
	// array branch without items, which kin-openapi rejects. Bodies are checked per schema.
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("parsing the %s document: %w", release, err)
	}
	docs[release] = doc
	return doc, nil
}

// IsRelease reports whether a published document exists for release.
func IsRelease(release string) bool {
	for _, r := range Releases {
		if r == release {
			return true
		}
	}
	return false
}

// SchemaName builds a component name such as "cluster_1.5_post_request_body".
func SchemaName(resource, version, kind string) string {
	return resource + "_" + version + "_" + kind
}

// NewestVersion returns the newest version of resource that release publishes, e.g. "1.5"
// for the cluster in 23.07.
func NewestVersion(release, resource string) (string, error) {
	doc, err := Load(release)
	if err != nil {
		return "", err
	}
	var versions []string
	prefix := resource + "_"
	for name := range doc.Components.Schemas {
		if rest, ok := strings.CutPrefix(name, prefix); ok && strings.HasSuffix(rest, "_"+GetResponse) {
			versions = append(versions, strings.TrimSuffix(rest, "_"+GetResponse))
		}
	}
	if len(versions) == 0 {
		return "", fmt.Errorf("release %s publishes no %s schema", release, resource)
	}
	sort.Slice(versions, func(i, j int) bool { return CompareVersions(versions[i], versions[j]) < 0 })
	return versions[len(versions)-1], nil
}

// AcceptedVersions returns the values the release's request schema allows in `version`
// for resource (its enum), newest first.
func AcceptedVersions(release, resource string) ([]string, error) {
	newest, err := NewestVersion(release, resource)
	if err != nil {
		return nil, err
	}
	doc, _ := Load(release)
	ref := doc.Components.Schemas[SchemaName(resource, newest, PostRequest)]
	if ref == nil || ref.Value == nil {
		ref = doc.Components.Schemas[SchemaName(resource, newest, GetResponse)]
	}
	prop := ref.Value.Properties["version"]
	if prop == nil || prop.Value == nil {
		return []string{newest}, nil
	}
	out := make([]string, 0, len(prop.Value.Enum))
	for _, v := range prop.Value.Enum {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return CompareVersions(out[i], out[j]) > 0 })
	return out, nil
}

// Schema finds the published schema for resource at version and kind. It looks in release
// first, then in older releases (a 1.3 body sent to a 24.02 service is described by the
// 22.11 document). It returns the release whose document holds the schema; ok is false
// when no release publishes that version (cluster 1.0 to 1.2 never were).
func Schema(release, resource, version, kind string) (schema *openapi3.Schema, from string, ok bool) {
	name := SchemaName(resource, version, kind)
	for i := len(Releases) - 1; i >= 0; i-- {
		r := Releases[i]
		if CompareReleases(r, release) > 0 {
			continue
		}
		doc, err := Load(r)
		if err != nil {
			continue
		}
		if ref := doc.Components.Schemas[name]; ref != nil && ref.Value != nil {
			return ref.Value, r, true
		}
	}
	return nil, "", false
}

// Validate checks a JSON body against a schema and reports every violation at once.
func Validate(schema *openapi3.Schema, body []byte) error {
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return ValidateValue(schema, value)
}

// ValidateValue is Validate for an already decoded JSON value (maps, slices, float64...).
func ValidateValue(schema *openapi3.Schema, value any) error {
	return schema.VisitJSON(value, openapi3.MultiErrors())
}

// CompareVersions orders dotted numeric versions such as "1.10" > "1.9".
func CompareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) || i < len(bs); i++ {
		x, y := versionPart(as, i), versionPart(bs, i)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// versionPart is the i-th number of a dotted version; missing or non-numeric parts count as 0.
func versionPart(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, err := strconv.Atoi(parts[i])
	if err != nil {
		return 0
	}
	return n
}

// CompareReleases orders release names ("23.07" < "24.02").
func CompareReleases(a, b string) int { return CompareVersions(a, b) }
