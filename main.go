// Command terraform-provider-astra serves the NetApp Astra Control provider to
// Terraform and OpenTofu over plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// version is set at build time: goreleaser and the GNUmakefile pass
// -ldflags "-X main.version=...". Local builds report "dev".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug { // under a debugger the logs go to this process's own stderr, for the developer
		quietLogsUnlessAsked(os.LookupEnv, os.Setenv)
	}

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/astra-control/astra",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err)
	}
}
