// Command floor-trivial serves the benchmark's do-nothing provider floor.Trivial (see internal/bench/floor).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/astra-control/terraform-provider-astra/internal/bench/floor"
)

func main() {
	if err := providerserver.Serve(context.Background(), floor.Trivial, providerserver.ServeOpts{Address: "registry.terraform.io/bench/floor-trivial"}); err != nil {
		log.Fatal(err)
	}
}
