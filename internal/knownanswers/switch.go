package knownanswers

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// SwitchVariable turns the known answers off: every request then goes to the framework. It
// rules them out when an answer looks wrong, and keeps the framework's path exercised end
// to end (one acceptance pass of `make test` runs with it off).
const SwitchVariable = "ASTRA_KNOWN_ANSWERS"

// switchValues says what SwitchVariable takes, for the error that refuses anything else.
const switchValues = "off, false or 0 to send every request to the framework; on, true or 1 (or unset) for the known answers; in any case"

// Enabled reads SwitchVariable: true unless it turns the known answers off; an error for a
// value it does not know.
func Enabled() (bool, error) {
	value := os.Getenv(SwitchVariable)
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "", "on", "true", "1":
		return true, nil
	case "off", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s is %q, which it does not take: set it to %s", SwitchVariable, value, switchValues)
}

// refusedSwitch serves the framework alone, and refuses the provider's configuration: the
// switch holds a value it does not know, and a guess either way could hide a problem.
type refusedSwitch struct {
	frameworkServer
	problem error
}

func (s *refusedSwitch) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := s.frameworkServer.ConfigureProvider(ctx, req)
	if resp == nil {
		resp = &tfprotov6.ConfigureProviderResponse{}
	}
	resp.Diagnostics = append(resp.Diagnostics, &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError,
		Summary: "Invalid " + SwitchVariable, Detail: s.problem.Error() + "."})
	return resp, err
}
