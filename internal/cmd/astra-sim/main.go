// Command astra-sim runs the Astra Control simulator (internal/astrasim) as a program,
// for demos and for users' own CI: `go run ./internal/cmd/astra-sim -help`, or
// `go install github.com/astra-control/terraform-provider-astra/internal/cmd/astra-sim@VERSION`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := exitCode(run(ctx, os.Args[1:], os.Stdout), os.Stderr)
	stop()
	os.Exit(code)
}

// Exit codes, so a CI script can tell a typo from a busy port (the usage code is the
// flag package's own convention).
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// usageError is a bad flag or argument: the command line itself is wrong.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// exitCode prints err once, on stderr (each message names its flag), and maps it to the
// exit code.
func exitCode(err error, stderr io.Writer) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	fmt.Fprintln(stderr, "astra-sim:", err)
	if errors.As(err, new(usageError)) {
		fmt.Fprintln(stderr, "astra-sim: run 'astra-sim -help' for the flags")
		return exitUsage
	}
	return exitFail
}
