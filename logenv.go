package main

import "strings"

// quietLogVariables are the log levels of the SDK, the framework and this provider. Unset,
// each defaults to TRACE: every gRPC call then formats and writes dozens of JSON lines that
// the CLI parses and throws away unless TF_LOG or TF_LOG_PROVIDER asked for them (about
// half the provider's CPU in a plan of many resources).
var quietLogVariables = []string{
	"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_ASTRA_API",
}

// quietLogsUnlessAsked turns those levels off when neither TF_LOG nor TF_LOG_PROVIDER is
// set, so nothing is formatted that nobody keeps. A variable the user set is left alone,
// and with either set nothing changes: whatever logging is asked for still works.
func quietLogsUnlessAsked(lookup func(string) (string, bool), set func(string, string) error) {
	for _, asked := range []string{"TF_LOG", "TF_LOG_PROVIDER"} {
		if v, ok := lookup(asked); ok && strings.TrimSpace(v) != "" {
			return
		}
	}
	for _, name := range quietLogVariables {
		if v, ok := lookup(name); !ok || strings.TrimSpace(v) == "" {
			_ = set(name, "OFF")
		}
	}
}
