package attrs

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TimeoutDefaults are a resource's waits when `timeouts` does not set them; zero leaves the
// operation out of the `timeouts` attribute.
type TimeoutDefaults struct {
	Create, Update, Delete time.Duration
}

// TimeoutsSchema is the `timeouts` nested attribute with each default in its description
// (the timeouts module does not document defaults itself).
func TimeoutsSchema(ctx context.Context, d TimeoutDefaults) schema.Attribute {
	describe := func(op string, def time.Duration) string {
		return "How long " + op + " may wait, as a duration such as \"30s\" or \"1h30m\". Defaults to `" + shortDuration(def) + "`."
	}
	return timeouts.Attributes(ctx, timeouts.Opts{
		Create: d.Create > 0, CreateDescription: describe("create", d.Create),
		Update: d.Update > 0, UpdateDescription: describe("update", d.Update),
		Delete: d.Delete > 0, DeleteDescription: describe("delete", d.Delete),
	})
}

// shortDuration prints 30m0s as 30m.
func shortDuration(d time.Duration) string {
	s := d.String()
	for _, suffix := range []string{"m0s", "h0m"} {
		if len(s) > len(suffix) && s[len(s)-len(suffix):] == suffix {
			s = s[:len(s)-len(suffix)+1]
		}
	}
	return s
}
