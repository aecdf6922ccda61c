// Command floor-schema serves the benchmark's do-nothing provider floor.SameSchema (see internal/bench/floor).
package main

import (
	"context"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/astra-control/terraform-provider-astra/internal/bench/floor"
)

func main() {
	if err := providerserver.Serve(context.Background(), floor.SameSchema, providerserver.ServeOpts{Address: "registry.terraform.io/bench/floor-schema"}); err != nil {
		log.Fatal(err)
	}
}
