package astrasim

import (
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
	"github.com/getkin/kin-openapi/openapi3"
)

// responseSchema is the GET schema a resource stored at version is answered with.
func (s *Sim) responseSchema(resource, version string) *openapi3.Schema {
	if sc, ok := s.schemaFor(resource, version, apispec.GetResponse); ok {
		return sc
	}
	return s.newestSchema(resource, apispec.GetResponse)
}

// timeFormat is type_astra_time: UTC with a Z, microseconds as the service sends them.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func renderMeta(m meta) map[string]any {
	labels := make([]any, 0, len(m.Labels))
	for _, l := range m.Labels {
		labels = append(labels, map[string]any{"name": l.Name, "value": l.Value})
	}
	out := map[string]any{
		"labels":                labels,
		"creationTimestamp":     formatTime(m.Created),
		"modificationTimestamp": formatTime(m.Modified),
		"createdBy":             orNull(m.CreatedBy),
	}
	if m.ModifiedBy != "" {
		out["modifiedBy"] = m.ModifiedBy
	}
	return out
}

func orNull(id string) string {
	if id == "" {
		return nullUUID
	}
	return id
}

func strs(in []string) []any {
	out := make([]any, 0, len(in))
	for _, s := range in {
		out = append(out, s)
	}
	return out
}

func putIf(m map[string]any, key, value string) {
	if value != "" {
		m[key] = value
	}
}

// clusterFields is every field of a cluster, before fitting it to a version's schema.
func clusterFields(c *cluster) map[string]any {
	m := map[string]any{
		"id": c.ID, "name": c.Name, "state": c.State, "stateUnready": strs(c.StateUnready),
		"managedState": c.ManagedState, "managedStateUnready": strs(c.ManagedStateUnready),
		"managedStateDetails": []any{}, "protectionState": c.ProtectionState, "protectionStateDetails": []any{},
		"restoreTargetSupported": "true", "snapshotSupported": "true", "inUse": boolString(c.inUse()),
		"clusterType": c.ClusterType, "clusterVersion": c.ClusterVersion, "clusterVersionString": c.ClusterVersionString,
		"clusterCreationTimestamp": formatTime(c.ClusterCreation), "namespaces": strs(c.Namespaces),
		"cloudID": c.CloudID, "isMultizonal": c.IsMultizonal, "tridentManagedStateDetails": []any{},
		"connectorCapabilities": strs(c.ConnectorCapabilities), "metadata": renderMeta(c.Meta),
	}
	if c.State != "running" {
		m["restoreTargetSupported"], m["snapshotSupported"] = "false", "false"
	}
	putIf(m, "tridentVersion", c.TridentVersion)
	putIf(m, "acpVersion", c.ACPVersion)
	putIf(m, "tridentManagedState", c.TridentManagedState)
	putIf(m, "tridentManagedStateDesired", c.TridentManagedStateDesired)
	if len(c.TridentAllowed) > 0 {
		m["tridentManagedStateAllowed"] = strs(c.TridentAllowed)
	}
	putIf(m, "defaultStorageClass", c.DefaultStorageClass)
	putIf(m, "credentialID", c.CredentialID)
	putIf(m, "privateRouteID", c.PrivateRouteID)
	putIf(m, "location", c.Location)
	putIf(m, "apiServiceID", c.APIServiceID)
	putIf(m, "defaultBucketID", c.DefaultBucketID)
	if c.AccHost {
		m["accHost"] = "true"
	}
	return m
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// renderCluster is the cluster facet (the Cluster API) at the version last written.
func (s *Sim) renderCluster(c *cluster) map[string]any {
	m := clusterFields(c)
	m["type"], m["version"] = "application/astra-cluster", c.Version
	if c.ManagedState == "managed" && c.ManagedTimestamp != nil {
		m["managedTimestamp"] = formatTime(*c.ManagedTimestamp)
	}
	sc := s.responseSchema(apispec.Cluster, c.Version)
	fitManagedState(sc.Properties["managedState"], m)
	fitCapabilities(sc.Properties["connectorCapabilities"], m)
	return c.Unknown.addTo(fitToSchema(sc, m))
}

// mcVersion is the managedCluster facet's version: as last written, else the newest.
func (s *Sim) mcVersion(c *cluster) string {
	if c.MCVersion != "" {
		return c.MCVersion
	}
	return s.newest[apispec.ManagedCluster]
}

// renderManagedCluster is the managedCluster facet of a managed cluster. Its schema
// requires managedTimestamp, which is set when management starts.
func (s *Sim) renderManagedCluster(c *cluster) map[string]any {
	m := clusterFields(c)
	v := s.mcVersion(c)
	m["type"], m["version"] = "application/astra-managedCluster", v
	if c.ManagedTimestamp != nil {
		m["managedTimestamp"] = formatTime(*c.ManagedTimestamp)
	}
	sc := s.responseSchema(apispec.ManagedCluster, v)
	fitManagedState(sc.Properties["managedState"], m)
	return c.Unknown.addTo(fitToSchema(sc, m))
}

// fitManagedState answers "deleting" only where the version's enum has it (from 1.7);
// older versions keep showing "managed" until the unmanage completes.
func fitManagedState(ref *openapi3.SchemaRef, m map[string]any) {
	if v, _ := m["managedState"].(string); v == "deleting" && !enumHas(ref, "deleting") {
		m["managedState"] = "managed"
	}
}

// fitCapabilities names the relay capability as the version does: relayV1 up to 1.6,
// connectorV2 from 1.7.
func fitCapabilities(ref *openapi3.SchemaRef, m map[string]any) {
	caps, _ := m["connectorCapabilities"].([]any)
	if ref == nil || len(caps) == 0 {
		return
	}
	out := make([]any, 0, len(caps))
	for _, c := range caps {
		name, ok := c.(string)
		if !ok {
			out = append(out, c)
			continue
		}
		switch {
		case name == "relayV1" && !enumHas(ref, "relayV1") && enumHas(ref, "connectorV2"):
			name = "connectorV2"
		case name == "connectorV2" && !enumHas(ref, "connectorV2") && enumHas(ref, "relayV1"):
			name = "relayV1"
		}
		if !contains(out, name) {
			out = append(out, name)
		}
	}
	m["connectorCapabilities"] = out
}

func contains(list []any, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func (s *Sim) renderCloud(c *cloud) map[string]any {
	m := map[string]any{
		"type": "application/astra-cloud", "version": c.Version, "id": c.ID, "name": c.Name,
		"state": c.State, "stateUnready": strs(c.StateUnready), "cloudType": c.CloudType,
		"metadata": renderMeta(c.Meta),
	}
	putIf(m, "credentialID", c.CredentialID)
	putIf(m, "defaultBucketID", c.DefaultBucketID)
	return fitToSchema(s.responseSchema(apispec.Cloud, c.Version), m)
}

// renderCredential never includes keyStore: the service never returns it.
func (s *Sim) renderCredential(c *credential) map[string]any {
	m := map[string]any{
		"type": "application/astra-credential", "version": c.Version, "id": c.ID, "name": c.Name,
		"valid": c.Valid, "metadata": renderMeta(c.Meta),
	}
	putIf(m, "keyType", c.KeyType)
	putIf(m, "validFromTimestamp", c.ValidFrom)
	putIf(m, "validUntilTimestamp", c.ValidUntil)
	return c.Unknown.addTo(fitToSchema(s.responseSchema(apispec.Credential, c.Version), m))
}

func (s *Sim) renderStorageClass(sc *storageClass) map[string]any {
	m := map[string]any{
		"type": "application/astra-storageClass", "version": s.newest[apispec.StorageClass], "id": sc.ID,
		"name": sc.Name, "provisioner": sc.Provisioner, "available": "available",
		"allowVolumeExpansion": sc.AllowExpansion, "reclaimPolicy": sc.ReclaimPolicy,
		"volumeBindingMode": sc.BindingMode, "metadata": renderMeta(sc.Meta),
	}
	if sc.Default {
		m["isDefault"] = "true"
	}
	return m
}
