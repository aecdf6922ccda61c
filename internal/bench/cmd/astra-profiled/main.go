// Command astra-profiled serves the provider exactly as the real binary does (the known
// answers in front of the framework, logging off unless asked) and writes a CPU profile of
// its whole life to $ASTRA_PROFILE_DIR/<pid>.pprof, so a benchmark can say where the
// provider's own time in a plan goes, and beside it a heap profile taken near the heap's
// peak (<pid>-heap.pprof) and the peaks (<pid>-mem.txt, memory.go). For profiling only: it
// is never shipped.
package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/astra-control/terraform-provider-astra/internal/gcgoal"
	"github.com/astra-control/terraform-provider-astra/internal/knownanswers"
	"github.com/astra-control/terraform-provider-astra/internal/provider"
)

func main() {
	if os.Getenv("TF_LOG") == "" && os.Getenv("TF_LOG_PROVIDER") == "" {
		for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ASTRA_API"} {
			_ = os.Setenv(v, "OFF")
		}
	}
	gcgoal.ForPlans()
	if dir := os.Getenv("ASTRA_PROFILE_DIR"); dir != "" {
		cpuOnly := os.Getenv("ASTRA_PROFILE_CPU_ONLY") != "" // memory sampling's stack walks would show in the CPU profile
		if !cpuOnly {
			runtime.MemProfileRate = 16 << 10 // the default 512 KiB samples too coarsely to tell a few MiB apart
		}
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d.pprof", os.Getpid())))
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
		if !cpuOnly {
			defer watchMemory(dir)()
		}
	}
	err := tf6server.Serve("registry.terraform.io/astra-control/astra", func() tfprotov6.ProviderServer {
		server, err := knownanswers.NewServer(provider.New("profiled")())()
		if err != nil {
			log.Fatal(err)
		}
		return server
	})
	if err != nil {
		log.Print(err)
	}
}
