package astrasim

import (
	"fmt"
	"regexp"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Seeds names what a new simulator holds before any request.
type Seeds struct {
	PrivateCloudID string      `json:"privateCloudID"`
	GCP            PublicCloud `json:"gcp"`
	Azure          PublicCloud `json:"azure"`
	AWS            PublicCloud `json:"aws"`
	TridentVersion string      `json:"tridentVersion"`
	// StorageClasses maps each seeded cluster ID to its storage class IDs, default first.
	StorageClasses map[string][]string `json:"storageClasses"`
}

// PublicCloud is a seeded public cloud with its service-account credential, one cluster
// that can be managed and one that is ineligible.
type PublicCloud struct {
	CloudID               string `json:"cloudID"`
	CredentialID          string `json:"credentialID"`
	ClusterID             string `json:"clusterID"`
	ClusterName           string `json:"clusterName"`
	IneligibleClusterID   string `json:"ineligibleClusterID"`
	IneligibleClusterName string `json:"ineligibleClusterName"`
}

func (s Seeds) clone() Seeds {
	out := s
	out.StorageClasses = map[string][]string{}
	for k, v := range s.StorageClasses {
		out.StorageClasses[k] = append([]string(nil), v...)
	}
	return out
}

// seedTime is when seeded objects claim to have been created: fixed, so a snapshot of a
// fresh simulator never depends on the clock.
var seedTime = time.Date(2024, 1, 15, 9, 30, 0, 0, time.UTC)

// tridentVersions is the Trident release that shipped with each API release.
var tridentVersions = map[string]string{
	"22.11": "22.10.0", "23.05": "23.04.0", "23.07": "23.07.0", "23.10": "23.10.0", "24.02": "24.02.0",
}

// publicSeed describes one seeded public cloud.
type publicSeed struct {
	cloudType, kind, location, versionString string
}

var publicSeeds = []publicSeed{
	{cloudType: "GCP", kind: "gke", location: "us-east1", versionString: "v1.27.3-gke.100"},
	{cloudType: "Azure", kind: "aks", location: "eastus", versionString: "v1.27.3"},
	{cloudType: "AWS", kind: "eks", location: "us-east-1", versionString: "v1.27.4-eks-2d98532"},
}

// seed builds the initial state. Every ID derives from Options.Seed and a fixed label.
func (s *Sim) seed() *state {
	st := &state{
		Release:        s.opts.Release,
		AccountID:      s.opts.AccountID,
		Clouds:         map[string]*cloud{},
		Clusters:       map[string]*cluster{},
		Credentials:    map[string]*credential{},
		StorageClasses: map[string]*storageClass{},
		Buckets:        map[string]*bucket{},
		Apps:           map[string]*app{},
		Schedules:      map[string]*schedule{},
		Seeds:          Seeds{TridentVersion: tridentVersions[s.opts.Release], StorageClasses: map[string][]string{}},
	}
	st.initDayTwo(s.opts.Now())
	sysMeta := func(labels ...label) meta {
		if labels == nil {
			labels = []label{}
		}
		return meta{Labels: labels, Created: seedTime, Modified: seedTime, CreatedBy: nullUUID}
	}
	private := &cloud{
		Seq: st.nextSeq(), ID: s.seedID("cloud/private"), Version: s.newest["cloud"], Name: "private",
		CloudType: "private", State: "running", StateUnready: []string{}, Meta: sysMeta(),
	}
	st.Clouds[private.ID] = private
	st.Seeds.PrivateCloudID = private.ID

	for _, ps := range publicSeeds {
		cred := &credential{
			Seq: st.nextSeq(), ID: s.seedID("credential/" + ps.cloudType), Version: s.newest["credential"],
			Name: ps.kind + "-service-account", KeyType: "generic", Valid: "true",
			Meta: sysMeta(label{labelCredType, "service-account"}, label{labelCloudName, ps.cloudType}),
		}
		st.Credentials[cred.ID] = cred
		cl := &cloud{
			Seq: st.nextSeq(), ID: s.seedID("cloud/" + ps.cloudType), Version: s.newest["cloud"], Name: ps.cloudType,
			CloudType: ps.cloudType, State: "running", StateUnready: []string{}, CredentialID: cred.ID, Meta: sysMeta(),
		}
		st.Clouds[cl.ID] = cl
		pc := PublicCloud{CloudID: cl.ID, CredentialID: cred.ID}

		prod := s.discoveredCluster(st, cl, ps, ps.kind+"-prod", "1.27", ps.versionString)
		pc.ClusterID, pc.ClusterName = prod.ID, prod.Name
		legacy := s.discoveredCluster(st, cl, ps, ps.kind+"-legacy", "1.21", "v1.21.14")
		legacy.ManagedState = "ineligible"
		legacy.ManagedStateUnready = []string{"Kubernetes version 1.21 is not supported; upgrade the cluster to 1.24 or later"}
		legacy.TridentVersion, legacy.ACPVersion, legacy.TridentManagedState, legacy.TridentAllowed = "", "", "", nil
		legacy.Meta.Labels = setLabel(legacy.Meta.Labels, labelTrident, "false")
		pc.IneligibleClusterID, pc.IneligibleClusterName = legacy.ID, legacy.Name
		for _, c := range []*cluster{prod, legacy} {
			for _, sc := range st.storageClassesOf(c.ID) {
				st.Seeds.StorageClasses[c.ID] = append(st.Seeds.StorageClasses[c.ID], sc.ID)
			}
		}
		switch ps.cloudType {
		case "GCP":
			st.Seeds.GCP = pc
		case "Azure":
			st.Seeds.Azure = pc
		case "AWS":
			st.Seeds.AWS = pc
		}
	}
	s.seedIdentity(st) // users of the configured tokens, LDAP (issue 47)
	return st
}

func (s *Sim) seedID(label string) string { return derivedUUID4(s.opts.Seed, "seed/"+label) }

// discoveredCluster adds a cluster the public cloud reports by itself (no POST).
func (s *Sim) discoveredCluster(st *state, cl *cloud, ps publicSeed, name, version, versionString string) *cluster {
	return s.discover(st, s.seedID("cluster/"+name), cl, ps, name, version, versionString, seedTime)
}

// discoverInNewCloud: a public cloud added with a service-account credential discovers the
// cluster that account sees, <kind>-prod (gke-prod, aks-prod, eks-prod), as the seeded
// clouds do; a cloud without such a credential sees nothing.
func (s *Sim) discoverInNewCloud(cl *cloud, now time.Time) {
	if s.st.credentialKind(cl.CredentialID) != credKindServiceAccount {
		return
	}
	for _, ps := range publicSeeds {
		if ps.cloudType == cl.CloudType {
			c := s.discover(s.st, s.newID(), cl, ps, ps.kind+"-prod", "1.27", ps.versionString, now)
			c.APIServiceID = uuid5("https://" + c.Name + "." + ps.kind + "." + cl.ID + ".simulated.invalid/") // another cluster than the seed's
		}
	}
}

func (s *Sim) discover(st *state, id string, cl *cloud, ps publicSeed, name, version, versionString string, now time.Time) *cluster {
	c := s.newCluster(st, id, cl, name, ps.kind, now)
	c.ClusterVersion, c.ClusterVersionString = version, versionString
	c.Location, c.IsMultizonal = ps.location, "true"
	c.APIServiceID = uuid5("https://" + name + "." + ps.kind + ".simulated.invalid/")
	c.Discovered = true
	c.Version, c.Meta.CreatedBy = s.newest["cluster"], nullUUID
	c.State, c.ManagedState = "running", "unmanaged"
	s.seedStorageClasses(st, c, now, nullUUID)
	return c
}

// newCluster is a running, unmanaged cluster with the fields every cluster has.
func (s *Sim) newCluster(st *state, id string, cl *cloud, name, kind string, now time.Time) *cluster {
	trident := tridentVersions[s.opts.Release]
	c := &cluster{
		Seq: st.nextSeq(), ID: id, CloudID: cl.ID, Name: name, Version: s.newest["cluster"],
		State: "running", StateUnready: []string{}, ManagedState: "unmanaged", ManagedStateUnready: []string{},
		ProtectionState: "full", ClusterType: kind, ClusterVersion: "1.27", ClusterVersionString: "v1.27.4",
		ClusterCreation: now.Add(-30 * 24 * time.Hour), TridentVersion: trident, TridentManagedState: "unmanaged",
		TridentAllowed: []string{"managed", "unmanaged"}, Namespaces: s.clusterNamespaces(), IsMultizonal: "false",
		Meta: meta{Labels: []label{{labelCloudName, cl.CloudType}, {labelTrident, "true"}}, Created: now, Modified: now},
	}
	if s.hasACP() {
		c.ACPVersion = trident
	}
	st.Clusters[c.ID] = c
	return c
}

// hasACP: the Astra Control Provisioner exists from 23.10 (cluster 1.6) on.
func (s *Sim) hasACP() bool { return apispec.CompareVersions(s.newest["cluster"], "1.6") >= 0 }

func defaultNamespaces() []string {
	return []string{"default", "kube-node-lease", "kube-public", "kube-system", "trident"}
}

// namespacePattern is a Kubernetes namespace name: a DNS-1123 label.
var namespacePattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// clusterNamespaces are a new cluster's namespaces: Kubernetes' own and Trident's, then
// those Options.Namespaces adds (an app's namespace, for a module to protect).
func (s *Sim) clusterNamespaces() []string {
	out := defaultNamespaces()
	for _, n := range s.opts.Namespaces {
		if !containsString(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// AddNamespace gives cluster id one more namespace, as if a workload's namespace had been
// created on it: an app can then protect it.
func (s *Sim) AddNamespace(id, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.st.Clusters[id]
	if c == nil {
		return fmt.Errorf("no cluster %s", id)
	}
	if !namespacePattern.MatchString(name) {
		return fmt.Errorf("namespace %q is not a DNS-1123 label", name)
	}
	if !containsString(c.Namespaces, name) {
		c.Namespaces = append(c.Namespaces, name)
	}
	return nil
}

// storageClassSeeds are the storage classes each kind of cluster reports, default first.
var storageClassSeeds = map[string][]storageClass{
	"gke": {
		{Name: "standard-rwo", Provisioner: "pd.csi.storage.gke.io", BindingMode: "WaitForFirstConsumer"},
		{Name: "netapp-cvs-perf-premium", Provisioner: "csi.trident.netapp.io", BindingMode: "Immediate"},
	},
	"aks": {
		{Name: "managed-csi", Provisioner: "disk.csi.azure.com", BindingMode: "WaitForFirstConsumer"},
		{Name: "netapp-anf-perf-standard", Provisioner: "csi.trident.netapp.io", BindingMode: "Immediate"},
	},
	"eks": {
		{Name: "gp2", Provisioner: "kubernetes.io/aws-ebs", BindingMode: "WaitForFirstConsumer"},
		{Name: "fsx-netapp-file", Provisioner: "csi.trident.netapp.io", BindingMode: "Immediate"},
	},
	"private": {
		{Name: "ontap-gold", Provisioner: "csi.trident.netapp.io", BindingMode: "Immediate"},
		{Name: "ontap-silver", Provisioner: "csi.trident.netapp.io", BindingMode: "Immediate"},
		{Name: "local-path", Provisioner: "rancher.io/local-path", BindingMode: "WaitForFirstConsumer"},
	},
}

// seedStorageClasses gives a cluster its storage classes; the first is the default.
func (s *Sim) seedStorageClasses(st *state, c *cluster, now time.Time, by string) {
	seeds, ok := storageClassSeeds[c.ClusterType]
	if !ok {
		seeds = storageClassSeeds["private"]
	}
	for i, t := range seeds {
		sc := t
		sc.Seq = st.nextSeq()
		sc.ID = derivedUUID4(s.opts.Seed, "storageClass/"+c.ID+"/"+t.Name)
		sc.ClusterID = c.ID
		sc.ReclaimPolicy = "Delete"
		sc.AllowExpansion = "true"
		sc.Default = i == 0
		sc.Meta = meta{Labels: []label{}, Created: now, Modified: now, CreatedBy: by}
		st.StorageClasses[sc.ID] = &sc
		if sc.Default {
			c.DefaultStorageClass = sc.ID
		}
	}
}
