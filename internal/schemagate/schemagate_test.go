package schemagate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/schemagate"
)

const snapshotPath = "../provider/schema.snapshot.json"

var now = time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)

func realServer() tfprotov6.ProviderServer {
	return providerserver.NewProtocol6(provider.New("test")())()
}

// brokenServer serves the real provider with its schema changed by breakSchema, as a
// careless release would.
type brokenServer struct {
	tfprotov6.ProviderServer
	breakSchema func(*tfprotov6.GetProviderSchemaResponse)
}

func (s brokenServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if err == nil {
		s.breakSchema(resp)
	}
	return resp, err //nolint:wrapcheck // a pass-through of the real server
}

func snapshotOf(t *testing.T, server tfprotov6.ProviderServer) *schemagate.Snapshot {
	t.Helper()
	s, err := schemagate.FromServer(context.Background(), server)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func attribute(t *testing.T, resp *tfprotov6.GetProviderSchemaResponse, resource, name string) *tfprotov6.SchemaAttribute {
	t.Helper()
	for _, a := range resp.ResourceSchemas[resource].Block.Attributes {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("%s has no attribute %s", resource, name)
	return nil
}

func removeAttribute(t *testing.T, resp *tfprotov6.GetProviderSchemaResponse, resource, name string) {
	t.Helper()
	attribute(t, resp, resource, name) // it must exist, or the case proves nothing
	block := resp.ResourceSchemas[resource].Block
	kept := block.Attributes[:0]
	for _, a := range block.Attributes {
		if a.Name != name {
			kept = append(kept, a)
		}
	}
	block.Attributes = kept
}

// TestGate_refusesBrokenSchemas feeds the gate the real provider with one deliberate break
// each and asserts what the gate says broke.
func TestGate_refusesBrokenSchemas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		breaks func(*testing.T, *tfprotov6.GetProviderSchemaResponse)
		where  string
		what   string
		fix    string // a prefix of the advice
	}{
		{
			name: "removed attribute",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				removeAttribute(t, r, "astra_cluster", "labels")
			},
			where: "resource astra_cluster attribute labels",
			what:  "removed (or renamed) without a deprecation period",
			fix:   "put it back. To retire or rename it, keep it with a DeprecationMessage",
		},
		{
			name: "removed action argument",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				block := r.ActionSchemas["astra_app_backup"].Schema.Block
				kept := block.Attributes[:0]
				for _, a := range block.Attributes {
					if a.Name != "bucket_id" {
						kept = append(kept, a)
					}
				}
				if len(kept) == len(block.Attributes) {
					t.Fatal("astra_app_backup has no bucket_id")
				}
				block.Attributes = kept
			},
			where: "action astra_app_backup attribute bucket_id",
			what:  "removed (or renamed) without a deprecation period",
			fix:   "put it back.",
		},
		{
			name: "renamed attribute",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				attribute(t, r, "astra_cluster", "acc_host").Name = "acc_hosted"
			},
			where: "resource astra_cluster attribute acc_host",
			what:  "removed (or renamed) without a deprecation period",
			fix:   "put it back.",
		},
		{
			name: "type change",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				attribute(t, r, "astra_cluster", "labels").Type = tftypes.List{ElementType: tftypes.String}
			},
			where: "resource astra_cluster attribute labels",
			what:  "type changed from map(string) to list(string): configurations and state written for the old type no longer fit",
			fix:   "keep the type.",
		},
		{
			name: "optional to required",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				a := attribute(t, r, "astra_cluster", "private_route_id")
				a.Optional, a.Required = false, true
			},
			where: "resource astra_cluster attribute private_route_id",
			what:  "changed from optional to required: configurations that omit it stop working",
			fix:   "keep it optional",
		},
		{
			name: "computed to user-set",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				a := attribute(t, r, "astra_managed_cluster", "trident_version")
				a.Computed, a.Optional = false, true
			},
			where: "resource astra_managed_cluster attribute trident_version",
			what:  "no longer computed: the value the provider filled in is dropped, and configurations that omit it now plan a change",
			fix:   "keep it computed.",
		},
		{
			name: "new required argument",
			breaks: func(_ *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				b := r.ResourceSchemas["astra_cloud"].Block
				b.Attributes = append(b.Attributes, &tfprotov6.SchemaAttribute{Name: "region", Type: tftypes.String, Required: true})
			},
			where: "resource astra_cloud attribute region",
			what:  "new required argument: every existing configuration lacks it",
			fix:   "make it optional",
		},
		{
			name:   "removed resource",
			breaks: func(_ *testing.T, r *tfprotov6.GetProviderSchemaResponse) { delete(r.ResourceSchemas, "astra_cloud") },
			where:  "resource astra_cloud",
			what:   "removed (or renamed) without a deprecation period",
			fix:    "put it back. To rename it, register the old type name too",
		},
		{
			name: "removed data source",
			breaks: func(_ *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				delete(r.DataSourceSchemas, "astra_clusters")
			},
			where: "data source astra_clusters",
			what:  "removed (or renamed) without a deprecation period",
			fix:   "put it back.",
		},
		{
			name: "secret no longer sensitive",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				attribute(t, r, "astra_kubeconfig_credential", "kubeconfig").Sensitive = false
			},
			where: "resource astra_kubeconfig_credential attribute kubeconfig",
			what:  "no longer sensitive: its value would show in plans and CLI output",
			fix:   "keep it sensitive.",
		},
		{
			name: "write-only dropped",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				attribute(t, r, "astra_kubeconfig_credential", "kubeconfig_wo").WriteOnly = false
			},
			where: "resource astra_kubeconfig_credential attribute kubeconfig_wo",
			what:  "write-only changed from true to false: references to it and the state that holds it change meaning",
			fix:   "leave this attribute as it is",
		},
		{
			name: "nested attribute removed",
			breaks: func(t *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				nt := attribute(t, r, "astra_cluster", "timeouts").NestedType
				nt.Attributes = nt.Attributes[1:] // create, the first in name order
			},
			where: "resource astra_cluster attribute timeouts.create",
			what:  "removed (or renamed) without a deprecation period",
			fix:   "put it back.",
		},
		{
			name: "schema version lowered",
			breaks: func(_ *testing.T, r *tfprotov6.GetProviderSchemaResponse) {
				r.ResourceSchemas["astra_cluster"].Version = -1
			},
			where: "resource astra_cluster",
			what:  "schema version went down from %d to -1: state written by the newer provider can no longer be read",
			fix:   "never lower a schema version",
		},
	}
	good := snapshotOf(t, realServer())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			broken := snapshotOf(t, brokenServer{realServer(), func(r *tfprotov6.GetProviderSchemaResponse) { tc.breaks(t, r) }})
			got := schemagate.Compare(good, broken, schemagate.Options{Now: now})
			what := tc.what
			if strings.Contains(what, "%d") {
				what = fmt.Sprintf(what, good.Resources["astra_cluster"].Version)
			}
			if len(got.Breaking) != 1 {
				t.Fatalf("want exactly one breaking change, got:\n%s", got.Report())
			}
			c := got.Breaking[0]
			if c.Where != tc.where || c.What != what || !strings.HasPrefix(c.Fix, tc.fix) {
				t.Errorf("got  %q: %q (fix %q)\nwant %q: %q (fix %q...)", c.Where, c.What, c.Fix, tc.where, what, tc.fix)
			}
			if rep := got.Report(); !strings.Contains(rep, "  - "+tc.where+": "+what+"\n    what to do: "+tc.fix) {
				t.Errorf("report does not say what broke and what to do:\n%s", rep)
			}
		})
	}
}

// TestGate_snapshotIsCurrent is `make schema-check` inside `go test`: the committed
// snapshot is the provider's schema.
func TestGate_snapshotIsCurrent(t *testing.T) {
	t.Parallel()
	committed, err := schemagate.Load(snapshotPath)
	if err != nil {
		t.Fatal(err)
	}
	if rep := schemagate.Compare(committed, snapshotOf(t, realServer()), schemagate.Options{Now: now}).Report(); rep != "" {
		t.Fatalf("%s does not match the provider:\n%s", snapshotPath, rep)
	}
}

// A removal is judged by the deprecation the snapshot recorded.
func TestGate_deprecationPeriod(t *testing.T) {
	t.Parallel()
	cur := func() *schemagate.Snapshot {
		return &schemagate.Snapshot{Resources: map[string]*schemagate.Block{"astra_x": {Attributes: map[string]*schemagate.Attribute{
			"kept": {Type: "string", Optional: true},
		}}}}
	}
	old := func(deprecated, since string, beta bool) *schemagate.Snapshot {
		s := cur()
		s.Resources["astra_x"].Attributes["gone"] = &schemagate.Attribute{Type: "string", Optional: true, Deprecated: deprecated, DeprecatedSince: since, Beta: beta}
		return s
	}
	const where = "resource astra_x attribute gone"
	cases := []struct {
		name                 string
		old                  *schemagate.Snapshot
		major                bool
		breaking, compatible string
	}{
		{"never deprecated", old("", "", false), true, "removed (or renamed) without a deprecation period", ""},
		{"deprecated too recently", old("use kept", "2026-12-01", false), true,
			"removed 2027-03-01; it was deprecated on 2026-12-01 and must stay until at least 2027-06-01 (and two minor releases)", ""},
		{"old deprecation, minor release", old("use kept", "2026-08-01", false), false, "removed in a minor release (deprecated since 2026-08-01)", ""},
		{"old deprecation, major release", old("use kept", "2026-08-01", false), true, "", "removed in a major release after its deprecation on 2026-08-01"},
		{"undated deprecation", old("use kept", "", false), true, `removed, but the snapshot has no valid deprecated_since date ("")`, ""},
		{"beta", old("", "", true), false, "", "removed (beta)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := schemagate.Compare(tc.old, cur(), schemagate.Options{Now: now, Major: tc.major})
			if tc.breaking != "" {
				if len(got.Breaking) != 1 || got.Breaking[0].Where != where || got.Breaking[0].What != tc.breaking || got.Breaking[0].Fix == "" {
					t.Fatalf("want the breaking change %q, got:\n%s", tc.breaking, got.Report())
				}
			} else if len(got.Breaking) != 0 {
				t.Fatalf("want no breaking change, got:\n%s", got.Report())
			}
			if tc.compatible != "" {
				if len(got.Compatible) != 1 || got.Compatible[0].What != tc.compatible {
					t.Fatalf("want the compatible change %q, got:\n%s", tc.compatible, got.Report())
				}
			} else if len(got.Compatible) != 0 {
				t.Fatalf("want no compatible change, got:\n%s", got.Report())
			}
		})
	}
}

// Additions are not breaking, but leave the snapshot stale until `make schema-snapshot`;
// Update dates a new deprecation and keeps the date of an old one.
func TestGate_additionsAndUpdate(t *testing.T) {
	t.Parallel()
	good := snapshotOf(t, realServer())
	grown := snapshotOf(t, brokenServer{realServer(), func(r *tfprotov6.GetProviderSchemaResponse) {
		b := r.ResourceSchemas["astra_cluster"].Block
		b.Attributes = append(b.Attributes, &tfprotov6.SchemaAttribute{Name: "note", Type: tftypes.String, Optional: true})
		for _, a := range b.Attributes {
			if a.Name == "acc_host" {
				a.Deprecated, a.DeprecationMessage = true, "acc_host is decided by the server"
			}
		}
	}})
	got := schemagate.Compare(good, grown, schemagate.Options{Now: now})
	if len(got.Breaking) != 0 || len(got.Compatible) != 2 {
		t.Fatalf("want two compatible changes, got:\n%s", got.Report())
	}
	if rep := got.Report(); !strings.Contains(rep, "run `make schema-snapshot` and commit the snapshot") ||
		!strings.Contains(rep, "resource astra_cluster attribute note: added") ||
		!strings.Contains(rep, "resource astra_cluster attribute acc_host: deprecated: acc_host is decided by the server") {
		t.Fatalf("report:\n%s", rep)
	}

	updated := schemagate.Update(good, grown, schemagate.Options{Now: now})
	if since := updated.Resources["astra_cluster"].Attributes["acc_host"].DeprecatedSince; since != "2027-03-01" {
		t.Fatalf("new deprecation dated %q, want 2027-03-01", since)
	}
	path := filepath.Join(t.TempDir(), "snapshot.json")
	if err := updated.Write(path); err != nil {
		t.Fatal(err)
	}
	reloaded, err := schemagate.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	later := schemagate.Update(reloaded, snapshotOf(t, brokenServer{realServer(), func(r *tfprotov6.GetProviderSchemaResponse) {
		for _, a := range r.ResourceSchemas["astra_cluster"].Block.Attributes {
			if a.Name == "acc_host" {
				a.Deprecated, a.DeprecationMessage = true, "acc_host is decided by the server"
			}
		}
	}}), schemagate.Options{Now: now.AddDate(1, 0, 0)})
	if since := later.Resources["astra_cluster"].Attributes["acc_host"].DeprecatedSince; since != "2027-03-01" {
		t.Fatalf("a later snapshot moved the deprecation date to %q", since)
	}
	if rep := schemagate.Compare(reloaded, grown, schemagate.Options{Now: now}).Report(); rep != "" {
		t.Fatalf("an updated snapshot still differs:\n%s", rep)
	}
}

func TestLoad_refusesUnknownFormat(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "snapshot.json")
	if err := os.WriteFile(path, []byte(`{"format_version": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := schemagate.Load(path)
	if err == nil || !strings.HasSuffix(err.Error(), "has format_version 2; this gate reads 1") {
		t.Fatalf("err = %v", err)
	}
}

// Identities never change within a major release: import blocks and state hold them.
func TestGate_identities(t *testing.T) {
	t.Parallel()
	id := func(attrs map[string]*schemagate.IdentityAttribute) *schemagate.Snapshot {
		s := &schemagate.Snapshot{}
		if attrs != nil {
			s.Identities = map[string]*schemagate.Identity{"astra_x": {Attributes: attrs}}
		}
		return s
	}
	old := id(map[string]*schemagate.IdentityAttribute{"id": {Type: "string", RequiredForImport: true}})
	cases := []struct {
		name  string
		cur   *schemagate.Snapshot
		where string
		what  string
	}{
		{"identity removed", id(nil), "resource astra_x identity", "removed: imports by identity and identities in state stop working"},
		{"attribute changed", id(map[string]*schemagate.IdentityAttribute{"id": {Type: "string", OptionalForImport: true}}),
			"resource astra_x identity attribute id", "changed from string required for import to string optional for import: identities in state and import blocks no longer fit"},
		{"attribute added, required", id(map[string]*schemagate.IdentityAttribute{
			"id": {Type: "string", RequiredForImport: true}, "account_id": {Type: "string", RequiredForImport: true},
		}), "resource astra_x identity attribute account_id", "new attribute required for import: existing import blocks lack it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := schemagate.Compare(old, tc.cur, schemagate.Options{Now: now})
			if len(got.Breaking) != 1 || got.Breaking[0].Where != tc.where || got.Breaking[0].What != tc.what || got.Breaking[0].Fix == "" {
				t.Fatalf("want %s: %s, got:\n%s", tc.where, tc.what, got.Report())
			}
		})
	}
	optionalAdded := id(map[string]*schemagate.IdentityAttribute{
		"id": {Type: "string", RequiredForImport: true}, "account_id": {Type: "string", OptionalForImport: true},
	})
	if got := schemagate.Compare(old, optionalAdded, schemagate.Options{Now: now}); len(got.Breaking) != 1 ||
		!strings.HasPrefix(got.Breaking[0].What, "added without a new identity version") {
		t.Fatalf("an identity attribute added without a new version:\n%s", got.Report())
	}
	optionalAdded.Identities["astra_x"].Version = 1
	if got := schemagate.Compare(old, optionalAdded, schemagate.Options{Now: now}); len(got.Breaking) != 0 || len(got.Compatible) != 2 {
		t.Fatalf("an optional identity attribute with a new identity version is compatible:\n%s", got.Report())
	}
}
