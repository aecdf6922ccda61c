// Command schema-gate compares the provider's schema with the committed snapshot
// (`make schema-check`) or rewrites the snapshot after compatible changes
// (`make schema-snapshot`). The schema is taken from the provider in-process, over the
// plugin protocol, exactly as a CLI would receive it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/astra-control/terraform-provider-astra/internal/provider"
	"github.com/astra-control/terraform-provider-astra/internal/schemagate"
)

// DefaultSnapshot is the committed snapshot, next to the provider it guards.
const DefaultSnapshot = "internal/provider/schema.snapshot.json"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, time.Now()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer, now time.Time) error {
	fs := flag.NewFlagSet("schema-gate", flag.ContinueOnError)
	fs.SetOutput(out)
	path := fs.String("snapshot", DefaultSnapshot, "the committed schema snapshot")
	update := fs.Bool("update", false, "rewrite the snapshot (refused while a change would break users)")
	major := fs.Bool("major", os.Getenv("SCHEMA_GATE_MAJOR") == "1", "preparing a major release: names deprecated for six months may go (env SCHEMA_GATE_MAJOR=1)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("schema-gate: %w", err)
	}
	cur, err := schemagate.FromServer(ctx, providerserver.NewProtocol6(provider.New("schema-gate")())())
	if err != nil {
		return fmt.Errorf("schema-gate: %w", err)
	}
	opts := schemagate.Options{Now: now.UTC(), Major: *major}
	old, err := schemagate.Load(*path)
	switch {
	case errors.Is(err, os.ErrNotExist) && *update:
		old = &schemagate.Snapshot{}
	case err != nil:
		return fmt.Errorf("schema-gate: %w", err)
	}
	result := schemagate.Compare(old, cur, opts)
	if len(result.Breaking) > 0 {
		return fmt.Errorf("schema-gate: %s does not match the provider's schema.\n%s", *path, result.Report())
	}
	if *update {
		if err := schemagate.Update(old, cur, opts).Write(*path); err != nil {
			return fmt.Errorf("schema-gate: %w", err)
		}
		fmt.Fprintf(out, "schema-gate: wrote %s (%d compatible change(s))\n", *path, len(result.Compatible))
		return nil
	}
	if len(result.Compatible) > 0 {
		return fmt.Errorf("schema-gate: %s is out of date.\n%s", *path, result.Report())
	}
	fmt.Fprintf(out, "schema-gate: the provider's schema matches %s (%d resources, %d data sources)\n", *path, len(cur.Resources), len(cur.DataSources))
	return nil
}
