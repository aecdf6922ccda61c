// Command astra-anchors serves the provider switched to the anchors' strategy, for the
// fleet benchmark only: waits poll every 10s (after a first 10s sleep), and every read is
// its own GET (the harness sets ASTRA_READ_MAX_AGE=0s). Logging is set as the real binary sets it.
package main

import (
	"context"
	"log"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

func main() {
	if os.Getenv("TF_LOG") == "" && os.Getenv("TF_LOG_PROVIDER") == "" {
		for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ASTRA_API"} {
			_ = os.Setenv(v, "OFF")
		}
	}
	fixed := astra.Schedule{InitialDelay: 10 * time.Second, Min: 10 * time.Second, Max: 10 * time.Second, Multiplier: 1, NotFoundGrace: 30 * time.Second}
	err := providerserver.Serve(context.Background(), provider.New("anchors", provider.WithWaitSchedule(fixed)),
		providerserver.ServeOpts{Address: "registry.terraform.io/astra-control/astra"})
	if err != nil {
		log.Fatal(err)
	}
}
