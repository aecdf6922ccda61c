package astra

import (
	"encoding/json"
	"testing"
)

var itemIDSeeds = []string{
	`{"id":"a"}`, `{"type":"application/astra-cluster","id":"7b0a","metadata":{"id":"x","labels":[{"id":"y"}]}}`,
	`{"ID":"a"}`, `{"Id":"a","id":"b"}`, `{"id":"a","id":"b"}`, `{"i\u0064":"a"}`, `{"id":"\u0061"}`, `{"id":1}`,
	`{"id":null}`, `{"name":"x"}`, `[]`, `"id"`, `{}`, ` { "id" : "a" , "x" : [ 1 , { "id" : "q" } ] } `,
	`{"x":"a\"b","id":"c"}`, `{"x":"\\","id":"d"}`, `{"x":true,"y":false,"z":null,"w":-1.5e3,"id":"e"}`,
	`{"ıd":"f"}`, `{"id":"é"}`, `{"x":{"a":{"b":[]}},"id":"g"}`,
}

// TestScanID: the seeds, including each case scanID leaves to encoding/json, answer as
// encoding/json does, and the plain ones are settled by the scan.
func TestScanID(t *testing.T) {
	for _, raw := range itemIDSeeds {
		checkItemID(t, []byte(raw))
	}
	for _, raw := range []string{`{"id":"a"}`, ` { "id" : "a" , "x" : [ 1 , { "id" : "q" } ] } `, `{"x":"a\"b","id":"c"}`, `{"name":"x"}`} {
		if _, ok := scanID([]byte(raw)); !ok {
			t.Errorf("scanID(%s) left a plain item to encoding/json", raw)
		}
	}
}

// FuzzScanID: on any valid JSON, itemID answers as encoding/json does, and what scanID
// settles is that answer.
func FuzzScanID(f *testing.F) {
	for _, raw := range itemIDSeeds {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if json.Valid(raw) {
			checkItemID(t, raw)
		}
	})
}

func checkItemID(t *testing.T, raw []byte) {
	t.Helper()
	var head struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &head)
	if got := itemID(raw); got != head.ID {
		t.Fatalf("itemID(%q) = %q, encoding/json %q", raw, got, head.ID)
	}
	if id, ok := scanID(raw); ok && id != head.ID {
		t.Fatalf("scanID(%q) settled %q, encoding/json %q", raw, id, head.ID)
	}
}
