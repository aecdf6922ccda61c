// Command terraform-provider-astra serves the NetApp Astra Control provider to
// Terraform and OpenTofu over plugin protocol 6.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/astra-control/terraform-provider-astra/internal/gcgoal"
	"github.com/astra-control/terraform-provider-astra/internal/grpcanswers"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

// version is set at build time: goreleaser and the GNUmakefile pass
// -ldflags "-X main.version=...". Local builds report "dev".
var version = "dev"

const providerAddress = "registry.terraform.io/astra-control/astra"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if !debug { // under a debugger the logs go to this process's own stderr, for the developer
		quietLogsUnlessAsked(os.LookupEnv, os.Setenv)
	}

	gcgoal.ForPlans()
	// The provider's resources, served by the framework behind the known answers.
	server, err := knownanswers.NewServer(provider.New(version)())()
	if err != nil {
		log.Fatal(err)
	}
	if !debug {
		// The known answers are taken on the gRPC path, before tf6server's logging (grpcanswers).
		grpcanswers.Serve(providerAddress, server, os.Environ())
		return
	}
	err = tf6server.Serve(providerAddress, func() tfprotov6.ProviderServer { return server }, tf6server.WithManagedDebug())
	if err != nil {
		log.Fatal(err)
	}
}
