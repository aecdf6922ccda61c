package echo

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// fillComputed is proposed (an object of block) with every null computed attribute set
// to rec's value at the same place, in nested attributes and blocks too where rec has a
// counterpart (a single object, a list element of the same index, a map element of the
// same key); where it has none, unknown, as a provider plans what only the API will know.
// Configured values, known or not, stay as they are: what Terraform requires of a plan.
func fillComputed(block *tfprotov6.SchemaBlock, proposed, rec tftypes.Value) (tftypes.Value, error) {
	return fillObject(block.Attributes, block.BlockTypes, proposed, rec)
}

func fillObject(attrs []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock, proposed, rec tftypes.Value) (tftypes.Value, error) {
	if !proposed.IsKnown() || proposed.IsNull() {
		return proposed, nil
	}
	var p map[string]tftypes.Value
	if err := proposed.As(&p); err != nil {
		return proposed, err
	}
	r := fields(rec)
	obj, ok := proposed.Type().(tftypes.Object)
	if !ok {
		return proposed, nil
	}
	var err error
	for _, a := range attrs {
		pv := p[a.Name]
		switch {
		case pv.IsKnown() && pv.IsNull() && a.Computed:
			p[a.Name] = recordedOr(r[a.Name], obj.AttributeTypes[a.Name])
		case a.NestedType != nil:
			single := a.NestedType.Nesting == tfprotov6.SchemaObjectNestingModeSingle
			if p[a.Name], err = fillNested(a.NestedType.Attributes, nil, single, pv, r[a.Name]); err != nil {
				return proposed, err
			}
		}
	}
	for _, b := range blocks {
		single := b.Nesting == tfprotov6.SchemaNestedBlockNestingModeSingle || b.Nesting == tfprotov6.SchemaNestedBlockNestingModeGroup
		if p[b.TypeName], err = fillNested(b.Block.Attributes, b.Block.BlockTypes, single, p[b.TypeName], r[b.TypeName]); err != nil {
			return proposed, err
		}
	}
	return tftypes.NewValue(proposed.Type(), p), nil
}

// fillNested fills a nested attribute's or block's objects: one, or a collection of them.
func fillNested(attrs []*tfprotov6.SchemaAttribute, blocks []*tfprotov6.SchemaNestedBlock, single bool, proposed, rec tftypes.Value) (tftypes.Value, error) {
	if single || !proposed.IsKnown() || proposed.IsNull() {
		return fillObject(attrs, blocks, proposed, rec)
	}
	var err error
	switch t := proposed.Type(); {
	case t.Is(tftypes.Map{}):
		var p map[string]tftypes.Value
		if err := proposed.As(&p); err != nil {
			return proposed, err
		}
		r := fields(rec)
		for k, e := range p {
			if p[k], err = fillObject(attrs, blocks, e, r[k]); err != nil {
				return proposed, err
			}
		}
		return tftypes.NewValue(t, p), nil
	default: // a list (by index) or a set (whose elements have no counterpart)
		var p, r []tftypes.Value
		if err := proposed.As(&p); err != nil {
			return proposed, err
		}
		if t.Is(tftypes.List{}) && rec.IsKnown() && !rec.IsNull() && rec.Type() != nil {
			_ = rec.As(&r)
		}
		for i, e := range p {
			var re tftypes.Value
			if i < len(r) {
				re = r[i]
			}
			if p[i], err = fillObject(attrs, blocks, e, re); err != nil {
				return proposed, err
			}
		}
		return tftypes.NewValue(t, p), nil
	}
}

// fields are an object's or map's elements; none when v is absent, null or unknown.
func fields(v tftypes.Value) map[string]tftypes.Value {
	var m map[string]tftypes.Value
	if v.Type() != nil && v.IsKnown() && !v.IsNull() {
		_ = v.As(&m)
	}
	return m
}

// recordedOr is rec when it is a value of type t, else unknown.
func recordedOr(rec tftypes.Value, t tftypes.Type) tftypes.Value {
	if rec.Type() == nil || !rec.Type().UsableAs(t) {
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	if rec.IsNull() {
		return tftypes.NewValue(t, nil)
	}
	return rec
}

// fillUnknown is planned with every unknown value set to rec's at the same path, or null
// where rec has none: an apply may answer anything for an unknown, and must keep the rest.
func fillUnknown(planned, rec tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(planned, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		if rec.Type() != nil {
			if got, _, err := tftypes.WalkAttributePath(rec, p); err == nil {
				if rv, ok := got.(tftypes.Value); ok && rv.IsFullyKnown() && rv.Type().UsableAs(v.Type()) {
					return rv, nil
				}
			}
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
}

// derivedIdentity is an identity of type t made of the same-named attributes of state: a
// resource's identity when the recorded state holds none (the CLI printed none).
func derivedIdentity(t tftypes.Type, state map[string]tftypes.Value) tftypes.Value {
	obj, _ := t.(tftypes.Object) // an identity schema's type is an object (ResourceIdentitySchema.ValueType)
	vals := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, at := range obj.AttributeTypes {
		if v, ok := state[name]; ok && v.IsFullyKnown() && v.Type().UsableAs(at) {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(t, vals)
}
