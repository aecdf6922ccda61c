package tridentprotect

import (
	"fmt"
	"strconv"
)

// Source kinds, as warnings and manifests name them.
const (
	sourceBucket = "bucket"
	sourceApp    = "app"
	sourcePolicy = "protection policy"
	sourceHook   = "execution hook"
)

// describe names an Astra object for a warning: kind "name" (id).
func describe(s Source) string {
	out := s.Kind + " " + strconv.Quote(s.Name)
	if s.ID != "" {
		out += " (" + s.ID + ")"
	}
	return out
}

// warnings collects a rendering's warnings in the order they are found.
type warnings []Warning

func (w *warnings) add(s Source, format string, args ...any) {
	*w = append(*w, Warning{Object: describe(s), Message: fmt.Sprintf(format, args...)})
}

func quote(s string) string {
	return strconv.Quote(s)
}
