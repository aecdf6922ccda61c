// Command astra-sim runs the Astra Control simulator (internal/astrasim) as a program,
// for demos and for users' own CI: `go run ./internal/cmd/astra-sim -help`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "astra-sim:", err)
		os.Exit(1)
	}
}
