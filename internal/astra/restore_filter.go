package astra

// RestoreFilter is an in-place restore's restoreFilter, a selective restore (app 2.2, the
// 23.05 to 24.02 documents; Astra Control Center's "restore apps" page; actoolkit's
// --filterSelection and --filterSet): the resources that GVKN's filters match are
// restored (include) or left out (exclude).
type RestoreFilter struct {
	// SelectionCriteria is "include" or "exclude".
	SelectionCriteria string       `json:"resourceSelectionCriteria"`
	GVKN              []GVKNFilter `json:"GVKN"`
}

// GVKNFilter matches a resource when every field it sets matches: Namespaces and Names
// any element, LabelSelectors all. Group is a pointer: "" is the core group.
type GVKNFilter struct {
	Group          *string  `json:"group,omitempty"`
	Version        string   `json:"version,omitempty"`
	Kind           string   `json:"kind,omitempty"`
	Namespaces     []string `json:"namespaces,omitempty"`
	Names          []string `json:"names,omitempty"`
	LabelSelectors []string `json:"labelSelectors,omitempty"`
}

// SelectiveRestoreAppVersion is the app version whose PUT has restoreFilter (2.1 has none).
const SelectiveRestoreAppVersion = "2.2"
