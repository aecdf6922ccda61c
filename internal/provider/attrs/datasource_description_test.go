package attrs

import (
	"testing"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
)

// TestComputedForDataSource_dropsResourceSentences: a data source's attributes, nested ones
// too, do not say that changing them forces a new resource (issue 44): its reader changes
// nothing. The rest of the description stays.
func TestComputedForDataSource_dropsResourceSentences(t *testing.T) {
	out := ComputedForDataSource(map[string]rschema.Attribute{
		"app_id": rschema.StringAttribute{Required: true, MarkdownDescription: "ID of the app." + ForcesReplacement},
		"items": rschema.ListNestedAttribute{Computed: true, MarkdownDescription: "Items." + UpdatedInPlace,
			NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
				"bucket_id": rschema.StringAttribute{Optional: true, Computed: true,
					MarkdownDescription: "ID of the bucket." + ForcesReplacement + KeepsServiceValue},
				"labels": rschema.MapAttribute{Optional: true, MarkdownDescription: "Labels." + NeverReplaces},
			}}},
	})
	items := out["items"].(dschema.ListNestedAttribute)
	for what, got := range map[string]string{
		"app_id":          out["app_id"].GetMarkdownDescription(),
		"items":           items.GetMarkdownDescription(),
		"items.bucket_id": items.NestedObject.Attributes["bucket_id"].GetMarkdownDescription(),
		"items.labels":    items.NestedObject.Attributes["labels"].GetMarkdownDescription(),
	} {
		want := map[string]string{"app_id": "ID of the app.", "items": "Items.", "items.bucket_id": "ID of the bucket.",
			"items.labels": "Labels."}[what]
		if got != want {
			t.Errorf("%s: description %q, want %q", what, got, want)
		}
	}
}
