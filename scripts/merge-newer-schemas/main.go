// Command merge-newer-schemas copies the action and list resource schemas of one
// `providers schema -json` dump into another: docs are rendered from OpenTofu's schema (see
// scripts/docs.sh), and OpenTofu prints neither, so they come from Terraform 1.14 or later.
//
//	go run ./scripts/merge-newer-schemas BASE.json NEWER.json   # rewrites BASE.json
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: merge-newer-schemas BASE.json NEWER.json")
		os.Exit(2)
	}
	if err := merge(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "merge-newer-schemas:", err)
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

// newerKinds are the schema kinds only Terraform 1.14 and later print.
var newerKinds = []string{"action_schemas", "list_resource_schemas"}

func merge(basePath, newerPath string) error {
	base, err := read(basePath)
	if err != nil {
		return err
	}
	newer, err := read(newerPath)
	if err != nil {
		return err
	}
	for addr, schemas := range base.ProviderSchemas {
		for _, kind := range newerKinds {
			s, ok := newer.ProviderSchemas[addr][kind]
			if !ok {
				return fmt.Errorf("%s has no %s for %s: is it Terraform 1.14 or later?", newerPath, kind, addr)
			}
			schemas[kind] = s
		}
	}
	out, err := json.Marshal(base)
	if err != nil {
		return err
	}
	return os.WriteFile(basePath, out, 0o600)
}
