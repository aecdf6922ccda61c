// Command merge-action-schemas copies the action schemas of one `providers schema -json`
// dump into another: docs are rendered from OpenTofu's schema (see scripts/docs.sh), and
// OpenTofu has no actions, so their schemas come from Terraform 1.14 or later.
//
//	go run ./scripts/merge-action-schemas BASE.json WITH_ACTIONS.json   # rewrites BASE.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: merge-action-schemas BASE.json WITH_ACTIONS.json")
		os.Exit(2)
	}
	if err := merge(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "merge-action-schemas:", err)
		os.Exit(1)
	}
}

type dump struct {
	FormatVersion   string                                `json:"format_version"`
	ProviderSchemas map[string]map[string]json.RawMessage `json:"provider_schemas"`
}

func read(path string) (*dump, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d dump
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

func merge(basePath, actionsPath string) error {
	base, err := read(basePath)
	if err != nil {
		return err
	}
	with, err := read(actionsPath)
	if err != nil {
		return err
	}
	for addr, schemas := range base.ProviderSchemas {
		actions, ok := with.ProviderSchemas[addr]["action_schemas"]
		if !ok {
			return fmt.Errorf("%s has no action schemas for %s: is it a CLI with actions (Terraform 1.14 or later)?", actionsPath, addr)
		}
		schemas["action_schemas"] = actions
	}
	out, err := json.Marshal(base)
	if err != nil {
		return err
	}
	return os.WriteFile(basePath, out, 0o600)
}
