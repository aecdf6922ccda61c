package astra

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Bool is a boolean that the API spells as the strings "true"/"false". It decodes "true",
// "false", "" (false), JSON true/false, null (false) and any letter case ("True"); it
// encodes as the strings "true"/"false". Optional booleans are *Bool with omitempty.
type Bool bool

// BoolPtr returns a pointer to a Bool, for optional request fields.
func BoolPtr(b bool) *Bool {
	v := Bool(b)
	return &v
}

// MarshalJSON encodes the API's string form.
func (b Bool) MarshalJSON() ([]byte, error) {
	if b {
		return []byte(`"true"`), nil
	}
	return []byte(`"false"`), nil
}

// UnmarshalJSON accepts both the string and the JSON boolean spellings.
func (b *Bool) UnmarshalJSON(data []byte) error {
	text := strings.TrimSpace(string(data))
	if text == "null" {
		*b = false
		return nil
	}
	if strings.HasPrefix(text, `"`) {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		text = strings.TrimSpace(s)
	}
	switch strings.ToLower(text) {
	case "true":
		*b = true
	case "false", "":
		*b = false
	default:
		return fmt.Errorf("astra: %q is not a boolean", truncate(text, 20))
	}
	return nil
}

// Value reports the boolean of an optional Bool; nil is false.
func (b *Bool) Value() bool { return b != nil && bool(*b) }
