package tridentprotect

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// manifestYAML is one YAML document: a comment naming the Astra object it comes from,
// then the object with its keys sorted (sigs.k8s.io/yaml goes through encoding/json,
// which sorts map keys), so the same object is always the same bytes.
func manifestYAML(m Manifest) (string, error) {
	body, err := yaml.Marshal(m.Object)
	if err != nil {
		return "", fmt.Errorf("tridentprotect: %s %s: %w", m.Kind, m.Name, err)
	}
	// Quoted, so no name can end the comment line and start YAML of its own.
	comment := "# Rendered from Astra Control " + m.Source.Kind + " " + strconv.Quote(m.Source.Name)
	if m.Source.ID != "" {
		comment += " (" + strconv.Quote(m.Source.ID) + ")"
	}
	return comment + "\n" + string(body), nil
}

// joinYAML is a YAML stream of documents, each introduced by "---".
func joinYAML(docs []string) string {
	var b strings.Builder
	for _, d := range docs {
		b.WriteString("---\n")
		b.WriteString(d)
	}
	return b.String()
}
