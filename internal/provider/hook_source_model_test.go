package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

const testScript = "#!/bin/sh\necho quiesce\n"

func TestHookSourceFrom(t *testing.T) {
	answer := &astra.HookSource{ID: "id-1", Name: "pg", Source: astra.EncodeScript(testScript), SourceMD5Checksum: "abc",
		Metadata: astra.Metadata{CreationTimestamp: "2026-01-01T00:00:00Z"}}
	// An import (no prior script) and a configuration with source read the script as text.
	m := hookSourceFrom(answer, hookSourceModel{})
	if m.Source.ValueString() != testScript || !m.SourceBase64.IsNull() || !m.Description.IsNull() {
		t.Errorf("plain: source %q, source_base64 %v, description %v", m.Source.ValueString(), m.SourceBase64, m.Description)
	}
	if m.SourceSHA256.ValueString() != scriptSHA256(testScript) || m.SourceMD5.ValueString() != "abc" {
		t.Errorf("hashes: sha256 %s, md5 %s", m.SourceSHA256, m.SourceMD5)
	}
	// A configuration with source_base64 keeps it there.
	m = hookSourceFrom(answer, hookSourceModel{SourceBase64: types.StringValue("x"), Source: types.StringNull()})
	if m.SourceBase64.ValueString() != answer.Source || !m.Source.IsNull() {
		t.Errorf("base64: source %v, source_base64 %v", m.Source, m.SourceBase64)
	}
	// A private source shows no script: the prior script and hash stay, the MD5 is the service's.
	private := *answer
	private.Source = ""
	prior := hookSourceModel{Source: types.StringValue("old"), SourceBase64: types.StringNull(), SourceSHA256: types.StringValue("h")}
	m = hookSourceFrom(&private, prior)
	if m.Source.ValueString() != "old" || m.SourceSHA256.ValueString() != "h" || m.SourceMD5.ValueString() != "abc" {
		t.Errorf("private: %v %v %v", m.Source, m.SourceSHA256, m.SourceMD5)
	}
}

func TestScriptSHA256(t *testing.T) {
	// sha256("abc"), the FIPS 180-2 test vector.
	if got := scriptSHA256("abc"); got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sha256(abc) = %s", got)
	}
}

func TestApplyHookSourcePlan(t *testing.T) {
	read := func() *astra.HookSource {
		return &astra.HookSource{ID: "id", Name: "pg", Source: astra.EncodeScript("old\n"), Description: "kept"}
	}
	unknown := types.StringUnknown()
	// Only the script changes: name and description stay as read (someone else's rename survives).
	h := read()
	applyHookSourcePlan(h, hookSourceModel{Name: unknown, Description: unknown, Source: types.StringValue("new\n"), SourceBase64: unknown})
	if h.Name != "pg" || h.Description != "kept" || h.Source != astra.EncodeScript("new\n") {
		t.Errorf("script change: %+v", h)
	}
	// From source to source_base64 with another script.
	h = read()
	applyHookSourcePlan(h, hookSourceModel{Name: unknown, Description: unknown, Source: types.StringNull(),
		SourceBase64: types.StringValue(astra.EncodeScript("b64\n"))})
	if h.Source != astra.EncodeScript("b64\n") {
		t.Errorf("base64 change: %q", h.Source)
	}
	// A removed description is sent empty; the script unchanged stays as read.
	h = read()
	applyHookSourcePlan(h, hookSourceModel{Name: types.StringValue("pg2"), Description: types.StringNull(), Source: unknown, SourceBase64: unknown})
	if h.Name != "pg2" || h.Description != "" || h.Source != astra.EncodeScript("old\n") {
		t.Errorf("rename: %+v", h)
	}
}

// TestHookSourceItemFrom_preloaded: astra_hook_sources marks a script NetApp preloads (the
// answer's preloaded, a string in the API) so that adopt-fleet can leave it out (issue 44
// item 5); the simulator seeds none, so this reads answers shaped as the 24.02 spec's.
func TestHookSourceItemFrom_preloaded(t *testing.T) {
	for answer, want := range map[string]bool{
		`{"type":"application/astra-hookSource","version":"1.0","id":"id-1","name":"netapp_provided","sourceType":"script","source":"IyEvYmluL3No","preloaded":"true","private":"false"}`: true,
		`{"type":"application/astra-hookSource","version":"1.0","id":"id-2","name":"mine","sourceType":"script","source":"IyEvYmluL3No","preloaded":"false","private":"false"}`:           false,
		`{"type":"application/astra-hookSource","version":"1.0","id":"id-3","name":"older","sourceType":"script","source":"IyEvYmluL3No"}`:                                                false,
	} {
		var source astra.HookSource
		if err := json.Unmarshal([]byte(answer), &source); err != nil {
			t.Fatal(err)
		}
		item := hookSourceItemFrom(&source)
		if item.Preloaded.IsNull() || item.Preloaded.ValueBool() != want || item.Name.ValueString() != source.Name {
			t.Errorf("%s: preloaded %v (name %v), want %v", answer, item.Preloaded, item.Name, want)
		}
	}
}
