package astrasim

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestSourceProblem(t *testing.T) {
	enc := base64.StdEncoding.EncodeToString
	cases := []struct {
		name, source, want string
	}{
		{"a script", enc([]byte("#!/bin/sh\necho ok\n")), ""},
		{"empty", "", ""},
		{"UTF-8 text", enc([]byte("#!/bin/sh\necho \"héllo ✓\"\n")), ""},
		{"a NUL byte", enc([]byte("#!/bin/sh\x00\n")), "binary data"},
		{"not UTF-8", enc([]byte{'#', '!', 0xff, 0xfe, '\n'}), "binary data"},
		{"CRLF line ends", enc([]byte("#!/bin/sh\r\necho ok\r\n")), "carriage returns"},
		{"not base64", "!!!!", "base64"},
		{"128 KiB encoded", enc([]byte(strings.Repeat("a", 96<<10))), ""},
		{"over 128 KiB encoded", enc([]byte(strings.Repeat("a", 96<<10+1))), "131072"},
	}
	for _, c := range cases {
		got := sourceProblem(c.source)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestHookSourceLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.post("/core/v1/hookSources", map[string]any{"type": "application/astra-hookSource", "version": "1.0", "name": "testScript",
		"sourceType": "script", "source": "IyEvYmluL2Jhc2gKZWNobyAidGhpcyBpcyBqdXN0IGFuIGV4YW1wbGUi", "description": "test upload"}).expect(201)
	id := r.str("id")
	// The checksum of NetApp's own example answer (toolkit docs, "create script").
	if r.str("sourceMD5Checksum") != "8ad9d02befca7ef9a0fd51f7ec4aebe7" || r.str("private") != "false" || r.str("preloaded") != "false" ||
		r.str("source") != "IyEvYmluL2Jhc2gKZWNobyAidGhpcyBpcyBqdXN0IGFuIGV4YW1wbGUi" {
		t.Fatalf("POST answer: %s", r.raw)
	}
	e.post("/core/v1/hookSources", hookSourceBody("testScript", testScript)).problem(9).field("invalidFields", "name")
	for _, bad := range []string{base64.StdEncoding.EncodeToString([]byte("echo\r\n")), base64.StdEncoding.EncodeToString([]byte{0, 1, 2})} {
		e.post("/core/v1/hookSources", hookSourceBody("bad", bad)).problem(9).field("invalidFields", "source")
	}
	e.post("/core/v1/hookSources", hookSourceBody("bad", "not base64!")).problem(8)
	e.post("/core/v1/hookSources", map[string]any{"type": "application/astra-hookSource", "version": "1.0", "name": "bad", "sourceType": "script",
		"source": testScript, "description": strings.Repeat("d", 512)}).problem(8)

	// A GET body sent back with a new script: the service's members are ignored.
	got := e.get("/core/v1/hookSources/" + id).expect(200).body
	got["source"] = testScript
	e.put("/core/v1/hookSources/"+id, got).expect(204)
	after := e.get("/core/v1/hookSources/" + id).expect(200)
	if after.str("source") != testScript || after.str("sourceMD5Checksum") == "8ad9d02befca7ef9a0fd51f7ec4aebe7" || after.str("description") != "test upload" {
		t.Errorf("after PUT: %s", after.raw)
	}
	// A PUT replaces: a description left out goes; the name and script stay.
	e.put("/core/v1/hookSources/"+id, map[string]any{"type": "application/astra-hookSource", "version": "1.0"}).expect(204)
	if after := e.get("/core/v1/hookSources/" + id).expect(200); after.body["description"] != nil || after.str("name") != "testScript" || after.str("source") != testScript {
		t.Errorf("after a PUT without a description: %s", after.raw)
	}
	other := e.hookSource("other")
	e.put("/core/v1/hookSources/"+other, map[string]any{"type": "application/astra-hookSource", "version": "1.0", "name": "testScript"}).problem(9)
	e.put("/core/v1/hookSources/"+other, map[string]any{"type": "application/astra-hookSource", "version": "1.0", "id": id}).problem(10)

	// A source a hook runs cannot be deleted: 403 problem 72.
	appID := e.readyApp("web")
	hookID := e.post(hooksOf(appID), hookBody("uses-it", appID, id)).expect(201).str("id")
	e.del("/core/v1/hookSources/" + id).problem(72)
	e.del("/core/v1/executionHooks/" + hookID).expect(204)
	e.del("/core/v1/hookSources/" + id).expect(204)
	e.get("/core/v1/hookSources/" + id).problem(2)
	if items := e.get("/core/v1/hookSources").expect(200).items(); len(items) != 1 || itemField(items, 0, "name") != "other" {
		t.Errorf("list: %v", items)
	}
}
