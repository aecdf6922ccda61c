package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

func TestParseReplicationFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-delay", "mirror=30s", "-delay", "failover=10s", "-delay", "transfer=2s",
		"-non-ontap-cluster", "gke-1", "-non-ontap-cluster", "aks-1", "-fail-transfers", "web",
		"-fail-next-transfer", "db=the destination volume is full", "-mirror-delete-removes-destination"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.opts.Delays
	if d.Mirror != 30*time.Second || d.Failover != 10*time.Second || d.Transfer != 2*time.Second {
		t.Errorf("delays %+v", d)
	}
	if strings.Join(cfg.opts.NonONTAPClusters, ",") != "gke-1,aks-1" || strings.Join(cfg.opts.FailTransfers, ",") != "web" ||
		!cfg.opts.MirrorDeleteRemovesDestination {
		t.Errorf("options %+v", cfg.opts)
	}
	want := []astrasim.FailNext{{Kind: astrasim.FailTransfer, App: "db", Reasons: []string{"the destination volume is full"}}}
	if fmt.Sprint(cfg.opts.FailNext) != fmt.Sprint(want) {
		t.Errorf("fail-next %+v", cfg.opts.FailNext)
	}
	if def, _ := parseFlags(nil, io.Discard); def.opts.MirrorDeleteRemovesDestination || def.opts.NonONTAPClusters != nil {
		t.Errorf("defaults %+v", def.opts)
	}
	for want, args := range map[string][]string{
		"-non-ontap-cluster":  {"-non-ontap-cluster", ""},
		"-fail-transfers":     {"-fail-transfers", ""},
		"-fail-next-transfer": {"-fail-next-transfer", "=why"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one mentioning %q", args, err, want)
		}
	}
	var help bytes.Buffer
	if _, err := parseFlags([]string{"-help"}, &help); !errors.Is(err, flag.ErrHelp) ||
		!strings.Contains(help.String(), "-mirror-delete-removes-destination") || !strings.Contains(help.String(), "transfer=D") {
		t.Errorf("help: %v\n%s", err, help.String())
	}
}
