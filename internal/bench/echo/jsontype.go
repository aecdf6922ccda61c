package echo

import (
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// jsonType is the type of a value in the JSON form `providers schema -json` prints
// ("string", ["list","string"], ["object",{"a":"number"}], ...). tftypes' own parser is
// deprecated for third-party use, and the form is small.
func jsonType(raw json.RawMessage) (tftypes.Type, error) {
	var name string
	if err := json.Unmarshal(raw, &name); err == nil {
		switch name {
		case "string":
			return tftypes.String, nil
		case "number":
			return tftypes.Number, nil
		case "bool":
			return tftypes.Bool, nil
		case "dynamic":
			return tftypes.DynamicPseudoType, nil
		}
		return nil, fmt.Errorf("unknown type %q", name)
	}
	var parts []json.RawMessage
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) < 2 {
		return nil, fmt.Errorf("type %s: not a type", raw)
	}
	if err := json.Unmarshal(parts[0], &name); err != nil {
		return nil, fmt.Errorf("type %s: %w", raw, err)
	}
	switch name {
	case "list", "set", "map":
		elem, err := jsonType(parts[1])
		if err != nil {
			return nil, err
		}
		switch name {
		case "list":
			return tftypes.List{ElementType: elem}, nil
		case "set":
			return tftypes.Set{ElementType: elem}, nil
		}
		return tftypes.Map{ElementType: elem}, nil
	case "object":
		var attrs map[string]json.RawMessage
		if err := json.Unmarshal(parts[1], &attrs); err != nil {
			return nil, fmt.Errorf("type %s: %w", raw, err)
		}
		obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
		for name, a := range attrs {
			t, err := jsonType(a)
			if err != nil {
				return nil, err
			}
			obj.AttributeTypes[name] = t
		}
		if len(parts) > 2 { // the optional attributes of a type constraint
			var optional []string
			if err := json.Unmarshal(parts[2], &optional); err != nil {
				return nil, fmt.Errorf("type %s: %w", raw, err)
			}
			obj.OptionalAttributes = map[string]struct{}{}
			for _, name := range optional {
				obj.OptionalAttributes[name] = struct{}{}
			}
		}
		return obj, nil
	case "tuple":
		var elems []json.RawMessage
		if err := json.Unmarshal(parts[1], &elems); err != nil {
			return nil, fmt.Errorf("type %s: %w", raw, err)
		}
		tuple := tftypes.Tuple{ElementTypes: make([]tftypes.Type, len(elems))}
		for i, e := range elems {
			t, err := jsonType(e)
			if err != nil {
				return nil, err
			}
			tuple.ElementTypes[i] = t
		}
		return tuple, nil
	}
	return nil, fmt.Errorf("type %s: unknown kind %q", raw, name)
}
