package main

import (
	"bytes"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/bench/echo"
)

// The echo floor (internal/bench/echo) answers with what astra's own apply of the same
// configuration recorded under the same CLI: the schemas `providers schema -json` prints
// and the state `show -json` prints, taken from astra's working directory once its runs
// are done. Each CLI records its own, so the floor serves exactly what that CLI saw.

// echoVariant is the echo floor answering with the record of astra's working directory
// dir under cli (recordEcho).
func (b *bench) echoVariant(cli, dir string) *variant {
	return b.echoFor(b.recordEcho(cli, dir))
}

// recordEcho writes the schemas and the state of astra's working directory dir, as cli
// prints them, into a directory beside it, with the state compiled for the echo floor
// (echo.Compile: a provider process then loads it in milliseconds), and returns that
// directory.
func (b *bench) recordEcho(cli, dir string) string {
	record := dir + "-echo-record"
	if err := os.MkdirAll(record, 0o755); err != nil {
		log.Fatal(err)
	}
	schema := b.output(cli, b.variants["ours"], dir, "providers", "schema", "-json")
	state := b.output(cli, b.variants["ours"], dir, "show", "-json")
	compiled, err := echo.Compile(schema, "", state)
	if err != nil {
		log.Fatalf("compiling the record of %s: %v", dir, err)
	}
	for file, data := range map[string][]byte{"schema.json": schema, "state.json": state, "records.gob": compiled} {
		if err := os.WriteFile(filepath.Join(record, file), data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	return record
}

// echoFor is the echo floor answering with the record in directory record.
func (b *bench) echoFor(record string) *variant {
	v := *b.variants["echo"]
	v.env = append(slices.Clone(v.env), "FLOOR_ECHO_SCHEMA="+filepath.Join(record, "schema.json"),
		"FLOOR_ECHO_STATE="+filepath.Join(record, "records.gob"))
	return &v
}

// output is what cli prints on stdout in dir with provider v (not measured).
func (b *bench) output(cli string, v *variant, dir string, args ...string) []byte {
	cmd := exec.Command(cli, args...)
	var stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stderr = dir, b.env(v), &stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%s %s in %s: %v\n%s", cli, strings.Join(args, " "), dir, err, stderr.String())
	}
	return out
}
