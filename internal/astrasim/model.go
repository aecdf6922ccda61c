package astrasim

import (
	"sort"
	"time"
)

// state is everything the simulated account holds. It is what SaveState writes, so its
// fields are exported to encoding/json (the types stay unexported). It never holds a
// secret: of a credential's keyStore only the parsed kubeconfig's cluster name and server.
type state struct {
	Release        string                   `json:"release"`
	AccountID      string                   `json:"accountID"`
	NextID         int                      `json:"nextID"`
	Clouds         map[string]*cloud        `json:"clouds"`
	Clusters       map[string]*cluster      `json:"clusters"`
	Credentials    map[string]*credential   `json:"credentials"`
	StorageClasses map[string]*storageClass `json:"storageClasses"`
	Buckets        map[string]*bucket       `json:"buckets"`
	Apps           map[string]*app          `json:"apps"`
	Schedules      map[string]*schedule     `json:"schedules"`
	Snapshots      map[string]*appSnap      `json:"snapshots"`
	Backups        map[string]*appBackup    `json:"backups"`
	HookSources    map[string]*hookSource   `json:"hookSources"`
	Hooks          map[string]*execHook     `json:"executionHooks"`
	// Clock and ScheduleCursors are the schedule clock's bookkeeping (scheduleclock.go).
	Clock           scheduleClock        `json:"scheduleClock"`
	ScheduleCursors map[string]time.Time `json:"scheduleCursors"`
	Seeds           Seeds                `json:"seeds"`
	// Identity is the account's users, groups, role bindings, tokens and LDAP (users.go).
	Identity *identity `json:"identity,omitempty"`
}

type label struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type meta struct {
	Labels     []label   `json:"labels"`
	Created    time.Time `json:"creationTimestamp"`
	Modified   time.Time `json:"modificationTimestamp"`
	CreatedBy  string    `json:"createdBy"`
	ModifiedBy string    `json:"modifiedBy,omitempty"`
}

// transition is a state change due at a time (a configured delay after its cause).
type transition struct {
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
}

type cloud struct {
	Seq             int         `json:"seq"`
	ID              string      `json:"id"`
	Version         string      `json:"version"`
	Name            string      `json:"name"`
	CloudType       string      `json:"cloudType"` // as the service answers it: private, GCP, Azure, AWS
	State           string      `json:"state"`
	StateUnready    []string    `json:"stateUnready"`
	CredentialID    string      `json:"credentialID,omitempty"`
	DefaultBucketID string      `json:"defaultBucketID,omitempty"`
	Meta            meta        `json:"metadata"`
	Pending         *transition `json:"pending,omitempty"`
}

func (c *cloud) public() bool { return c.CloudType != "private" }

type cluster struct {
	Seq                        int         `json:"seq"`
	ID                         string      `json:"id"`
	CloudID                    string      `json:"cloudID"`
	Name                       string      `json:"name"`
	Version                    string      `json:"version"`             // cluster facet, as last written
	MCVersion                  string      `json:"mcVersion,omitempty"` // managedCluster facet, as last written
	State                      string      `json:"state"`
	StateUnready               []string    `json:"stateUnready"`
	ManagedState               string      `json:"managedState"`
	ManagedStateUnready        []string    `json:"managedStateUnready"`
	ManagedTimestamp           *time.Time  `json:"managedTimestamp,omitempty"`
	ProtectionState            string      `json:"protectionState"`
	ClusterType                string      `json:"clusterType"`
	ClusterVersion             string      `json:"clusterVersion"`
	ClusterVersionString       string      `json:"clusterVersionString"`
	ClusterCreation            time.Time   `json:"clusterCreationTimestamp"`
	TridentVersion             string      `json:"tridentVersion,omitempty"`
	ACPVersion                 string      `json:"acpVersion,omitempty"`
	TridentManagedState        string      `json:"tridentManagedState,omitempty"`
	TridentManagedStateDesired string      `json:"tridentManagedStateDesired,omitempty"`
	TridentAllowed             []string    `json:"tridentManagedStateAllowed,omitempty"`
	Namespaces                 []string    `json:"namespaces"`
	DefaultStorageClass        string      `json:"defaultStorageClass,omitempty"`
	CredentialID               string      `json:"credentialID,omitempty"`
	PrivateRouteID             string      `json:"privateRouteID,omitempty"`
	ConnectorCapabilities      []string    `json:"connectorCapabilities,omitempty"`
	AccHost                    bool        `json:"accHost,omitempty"`
	Location                   string      `json:"location,omitempty"`
	IsMultizonal               string      `json:"isMultizonal"`
	APIServiceID               string      `json:"apiServiceID,omitempty"`
	DefaultBucketID            string      `json:"defaultBucketID,omitempty"`
	Discovered                 bool        `json:"discovered,omitempty"` // public cloud: listed without a POST
	Connector                  bool        `json:"connector,omitempty"`  // added without a credential, waits for its connector
	Removing                   bool        `json:"removing,omitempty"`
	ManagedApps                int         `json:"managedApps,omitempty"` // apps a test declares without creating them (SetManagedApps)
	AppIDs                     []string    `json:"appIDs,omitempty"`      // the apps managed on the cluster, in creation order
	Meta                       meta        `json:"metadata"`
	Pending                    *transition `json:"pending,omitempty"`
	Unknown                    members     `json:"unknown,omitempty"` // lenient: members no published release has, shown by both facets
}

// managed reports whether the cluster has a managedCluster facet.
func (c *cluster) managed() bool {
	switch c.ManagedState {
	case "managed", "managing", "deleting":
		return true
	}
	return false
}

func (c *cluster) inUse() bool {
	return c.ManagedState == "managed" && c.ManagedApps+len(c.AppIDs) > 0
}

type credential struct {
	Seq        int       `json:"seq"`
	ID         string    `json:"id"`
	Version    string    `json:"version"`
	Name       string    `json:"name"`
	KeyType    string    `json:"keyType,omitempty"`
	Valid      string    `json:"valid"`
	ValidFrom  string    `json:"validFromTimestamp,omitempty"`
	ValidUntil string    `json:"validUntilTimestamp,omitempty"`
	Kube       *kubeInfo `json:"kubeconfig,omitempty"` // parsed facts only, never the content
	// KeyDigest tells key stores apart without holding them (KeyStoreDigest): tests see
	// which one a create or a rotation sent.
	KeyDigest string `json:"keyDigest,omitempty"`
	// PasswordChange: a passwordHash credential's change flag (passwords.go).
	PasswordChange bool    `json:"passwordChange,omitempty"`
	Meta           meta    `json:"metadata"`
	Unknown        members `json:"unknown,omitempty"` // lenient: members no published release has
}

// bucket is an object-store bucket backups go to (application/astra-bucket). Params holds
// bucketParameters as sent: one provider key ("s3", "gcp", "azure") with its strings.
type bucket struct {
	Seq           int                          `json:"seq"`
	ID            string                       `json:"id"`
	Version       string                       `json:"version"`
	Name          string                       `json:"name"`
	CredentialID  string                       `json:"credentialID"`
	Provider      string                       `json:"provider"`
	Params        map[string]map[string]string `json:"bucketParameters"`
	State         string                       `json:"state"`
	StateDetails  []stateDetail                `json:"stateDetails"`
	RetentionTime int                          `json:"retentionTime"`
	Meta          meta                         `json:"metadata"`
	Pending       *transition                  `json:"pending,omitempty"`
}

// stateDetail is one entry of type_astra_stateDetails.
type stateDetail struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

type storageClass struct {
	Seq            int    `json:"seq"`
	ID             string `json:"id"`
	ClusterID      string `json:"clusterID"`
	Name           string `json:"name"`
	Provisioner    string `json:"provisioner"`
	ReclaimPolicy  string `json:"reclaimPolicy"`
	BindingMode    string `json:"volumeBindingMode"`
	AllowExpansion string `json:"allowVolumeExpansion"`
	Default        bool   `json:"isDefault,omitempty"`
	Meta           meta   `json:"metadata"`
}

// nextSeq numbers objects in creation order; lists answer in that order.
func (st *state) nextSeq() int {
	st.NextID++
	return st.NextID
}

func (st *state) sortedClusters(keep func(*cluster) bool) []*cluster {
	var out []*cluster
	for _, c := range st.Clusters {
		if keep(c) {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (st *state) sortedClouds() []*cloud {
	out := make([]*cloud, 0, len(st.Clouds))
	for _, c := range st.Clouds {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (st *state) sortedCredentials() []*credential {
	out := make([]*credential, 0, len(st.Credentials))
	for _, c := range st.Credentials {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (st *state) sortedBuckets() []*bucket {
	out := make([]*bucket, 0, len(st.Buckets))
	for _, b := range st.Buckets {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

func (st *state) storageClassesOf(clusterID string) []*storageClass {
	var out []*storageClass
	for _, sc := range st.StorageClasses {
		if sc.ClusterID == clusterID {
			out = append(out, sc)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// removeCluster drops a cluster, its storage classes and the labels it put on its credential.
func (st *state) removeCluster(c *cluster) {
	for _, sc := range st.storageClassesOf(c.ID) {
		delete(st.StorageClasses, sc.ID)
	}
	if cred := st.Credentials[c.CredentialID]; cred != nil {
		cred.Meta.Labels = withoutLabels(cred.Meta.Labels, labelClusterID, labelClusterName)
	}
	delete(st.Clusters, c.ID)
}

// Read-only labels the service maintains.
const (
	readOnlyPrefix   = "astra.netapp.io/labels/read-only/"
	labelCloudName   = readOnlyPrefix + "cloudName"
	labelCredType    = readOnlyPrefix + "credType"
	labelClusterID   = readOnlyPrefix + "clusterID"
	labelClusterName = readOnlyPrefix + "clusterName"
	labelTrident     = readOnlyPrefix + "hasTridentDriverSupport"
)

func withoutLabels(ls []label, names ...string) []label {
	out := []label{}
	for _, l := range ls {
		drop := false
		for _, n := range names {
			if l.Name == n {
				drop = true
			}
		}
		if !drop {
			out = append(out, l)
		}
	}
	return out
}

func setLabel(ls []label, name, value string) []label {
	return append(withoutLabels(ls, name), label{Name: name, Value: value})
}
