package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tfsdklog"
)

func TestQuietLogsUnlessAsked(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want map[string]string // what is set
	}{
		{"nothing asked: every level off", map[string]string{},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF", "TF_LOG_PROVIDER": "OFF", "TF_LOG_PROVIDER_ASTRA_API": "OFF"}},
		{"TF_LOG asked: untouched", map[string]string{"TF_LOG": "DEBUG"}, map[string]string{}},
		{"TF_LOG_PROVIDER asked: untouched", map[string]string{"TF_LOG_PROVIDER": "trace"}, map[string]string{}},
		{"empty TF_LOG is not asking", map[string]string{"TF_LOG": " ", "TF_LOG_SDK_FRAMEWORK": "info"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_PROVIDER": "OFF", "TF_LOG_PROVIDER_ASTRA_API": "OFF"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]string{}
			quietLogsUnlessAsked(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok },
				func(k, v string) error { got[k] = v; return nil })
			if len(got) != len(c.want) {
				t.Fatalf("set %v, want %v", got, c.want)
			}
			for k, v := range c.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
				}
			}
		})
	}
}

// frameworkLines logs one TRACE line the way the framework does (a root SDK logger whose
// level comes from TF_LOG_SDK_FRAMEWORK) after quietLogsUnlessAsked ran on the process's
// environment, and returns what was written.
func frameworkLines(t *testing.T) string {
	t.Helper()
	quietLogsUnlessAsked(os.LookupEnv, func(k, v string) error { t.Setenv(k, v); return nil })
	// The SDK's loggers write to the process's stderr, where go-plugin forwards them.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	ctx := tfsdklog.NewRootSDKLogger(context.Background(), tfsdklog.WithLevelFromEnv("TF_LOG_SDK_FRAMEWORK"))
	tfsdklog.Trace(ctx, "Calling provider defined Resource Read")
	os.Stderr = saved
	w.Close()
	out, _ := io.ReadAll(r)
	return string(out)
}

func TestFrameworkTraceIsDroppedUnlessLoggingIsAsked(t *testing.T) {
	for _, name := range append([]string{"TF_LOG"}, quietLogVariables...) {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	if got := frameworkLines(t); got != "" {
		t.Errorf("no log asked, yet the framework wrote %q", got)
	}
}

func TestFrameworkTraceIsWrittenWhenLoggingIsAsked(t *testing.T) {
	for _, name := range quietLogVariables {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	t.Setenv("TF_LOG", "TRACE")
	if got := frameworkLines(t); !strings.Contains(got, "Calling provider defined Resource Read") {
		t.Errorf("TF_LOG=TRACE, yet the framework line is missing: %q", got)
	}
}
