package tridentprotect

// Rendering is the result of Render: the manifests, the Secrets they expect the user to
// create, what could not be carried over, and every manifest as one YAML stream.
type Rendering struct {
	Manifests []Manifest
	Secrets   []Secret
	Warnings  []Warning
	// YAML holds every manifest, each document starting with "---".
	YAML string
}

// Manifest is one custom resource. Object holds only string, bool, []any and
// map[string]any values, so that it converts to a Terraform value as it is.
type Manifest struct {
	Kind      string
	Name      string
	Namespace string
	Source    Source
	Object    map[string]any
	// YAML is this manifest alone, one document (for yamldecode).
	YAML string
}

// Key identifies a manifest within a rendering: kind.namespace.name. Names and
// namespaces hold no dots, so the key is unambiguous; it is also a valid file name, and
// the key a configuration that reads the YAML back builds from kind and metadata.
func (m Manifest) Key() string {
	return m.Kind + "." + m.Namespace + "." + m.Name
}

// Source is the Astra Control object a manifest was rendered from.
type Source struct {
	Kind string // bucket, app, protection policy, execution hook
	ID   string
	Name string
}

// Secret is a Kubernetes Secret a manifest reads and the user creates: its name, where,
// and the keys it must hold. Never a value.
type Secret struct {
	Name      string
	Namespace string
	Keys      []string
	// Purpose says what the keys are, for the user who fills them in.
	Purpose string
	// The bucket and Astra credential an AppVault's Secret stands for; empty for the data
	// mover password Secret.
	BucketID       string
	BucketName     string
	CredentialID   string
	CredentialName string
}

// Warning is something of the estate that the rendering could not carry over as it is.
type Warning struct {
	Object  string // the Astra object, e.g. `protection policy "daily" (id)`
	Message string
}

// String is "object: message".
func (w Warning) String() string {
	return w.Object + ": " + w.Message
}
