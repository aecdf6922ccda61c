package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/schemagate"
)

var now = time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)

// The committed snapshot passes; a snapshot that lacks an attribute the provider has is
// stale (check fails, update repairs it); one with an attribute the provider lacks is a
// break that update refuses to record.
func TestRun(t *testing.T) {
	t.Parallel()
	committed, err := os.ReadFile(filepath.Join("..", "..", "provider", "schema.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-snapshot", "../../provider/schema.snapshot.json"}, &out, now); err != nil {
		t.Fatalf("committed snapshot: %v", err)
	}
	if !strings.Contains(out.String(), "the provider's schema matches") {
		t.Fatalf("output: %s", out.String())
	}

	dir := t.TempDir()
	// variant writes the committed snapshot changed by edit.
	variant := func(name string, edit func(attrs map[string]*schemagate.Attribute)) string {
		s, err := schemagate.Load("../../provider/schema.snapshot.json")
		if err != nil {
			t.Fatal(err)
		}
		edit(s.Resources["astra_cluster"].Attributes)
		path := filepath.Join(dir, name)
		if err := s.Write(path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stale := variant("stale.json", func(a map[string]*schemagate.Attribute) { delete(a, "acc_host") })
	err = run(context.Background(), []string{"-snapshot", stale}, &out, now)
	if err == nil || !strings.Contains(err.Error(), "is out of date") || !strings.Contains(err.Error(), "resource astra_cluster attribute acc_host: added") {
		t.Fatalf("stale snapshot: %v", err)
	}
	if err := run(context.Background(), []string{"-snapshot", stale, "-update"}, &out, now); err != nil {
		t.Fatalf("update: %v", err)
	}
	if updated, _ := os.ReadFile(stale); !bytes.Equal(updated, committed) {
		t.Fatal("update did not restore the committed snapshot")
	}

	ahead := variant("ahead.json", func(a map[string]*schemagate.Attribute) {
		a["acc_guest"] = &schemagate.Attribute{Type: "bool", Optional: true}
	})
	for _, args := range [][]string{{"-snapshot", ahead}, {"-snapshot", ahead, "-update"}} {
		err = run(context.Background(), args, &out, now)
		if err == nil || !strings.Contains(err.Error(), "resource astra_cluster attribute acc_guest: removed (or renamed) without a deprecation period") {
			t.Fatalf("%v: %v", args, err)
		}
	}
	if kept, _ := os.ReadFile(ahead); bytes.Equal(kept, committed) {
		t.Fatal("update recorded a breaking change")
	}
}
