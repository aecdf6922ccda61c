// Command floor-echo serves the benchmark's echo floor (see internal/bench/echo): the
// schemas in $FLOOR_ECHO_SCHEMA (`providers schema -json`'s output) and the values in
// $FLOOR_ECHO_STATE (`show -json`'s output after a real apply, or the same compiled by
// echo.Compile, which loads faster), for the provider $FLOOR_ECHO_PROVIDER names there
// (optional when the file has one provider).
package main

import (
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/astra-control/terraform-provider-astra/internal/bench/echo"
)

func main() {
	schemaPath, statePath := os.Getenv("FLOOR_ECHO_SCHEMA"), os.Getenv("FLOOR_ECHO_STATE")
	if schemaPath == "" || statePath == "" {
		log.Fatal("floor-echo: FLOOR_ECHO_SCHEMA and FLOOR_ECHO_STATE name the recorded schemas and state")
	}
	schemaJSON, err := os.ReadFile(schemaPath)
	if err != nil {
		log.Fatal(err)
	}
	server, err := echo.New(schemaJSON, os.Getenv("FLOOR_ECHO_PROVIDER"), func() ([]byte, error) { return os.ReadFile(statePath) })
	if err != nil {
		log.Fatal(err)
	}
	if err := tf6server.Serve("registry.terraform.io/bench/floor-echo", func() tfprotov6.ProviderServer { return server }); err != nil {
		log.Fatal(err)
	}
}
