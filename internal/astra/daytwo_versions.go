package astra

// The resource versions of snapshots, backups and execution hooks follow the release the
// provider's api_version (the cluster resource version) names, as the managedCluster's
// does: shared/spec/README.md's table, release by release.

// HookSourceVersion is the hook source resource version: 1.0, the only one published.
const HookSourceVersion = "1.0"

// dayTwoVersions are the versions one release published.
type dayTwoVersions struct{ appSnap, appBackup, executionHook string }

var releaseDayTwo = map[string]dayTwoVersions{
	"22.11": {appSnap: "1.1", appBackup: "1.1", executionHook: "1.2"},
	"23.05": {appSnap: "1.2", appBackup: "1.2", executionHook: "1.2"},
	"23.07": {appSnap: "1.2", appBackup: "1.2", executionHook: "1.3"},
	"23.10": {appSnap: "1.2", appBackup: "1.2", executionHook: "1.3"},
	"24.02": {appSnap: "1.3", appBackup: "1.2", executionHook: "1.3"},
}

// ReleaseFor names the API release that published a cluster resource version: 1.4 is
// 23.05, 1.5 23.07 (Astra Control Service), 1.6 23.10, 1.7 24.02; 1.3 and the versions
// never published before it (1.0-1.2) are 22.11, the oldest release with a document.
func ReleaseFor(clusterVersion string) string {
	switch clusterVersion {
	case "1.4":
		return "23.05"
	case "1.5":
		return "23.07"
	case "1.6":
		return "23.10"
	case "1.7":
		return "24.02"
	}
	return "22.11"
}

// ExecutionHookVersionFor is the execution hook resource version of the release of a
// cluster resource version: 1.2 up to 23.05 (cluster 1.4), 1.3 from 23.07 (cluster 1.5),
// the version that adds failover hooks.
func ExecutionHookVersionFor(clusterVersion string) string {
	return releaseDayTwo[ReleaseFor(clusterVersion)].executionHook
}

// AppSnapVersionFor is the snapshot resource version of the release: 1.1 (22.11), 1.2,
// 1.3 (24.02, which adds bucketID).
func AppSnapVersionFor(clusterVersion string) string {
	return releaseDayTwo[ReleaseFor(clusterVersion)].appSnap
}

// AppBackupVersionFor is the backup resource version of the release: 1.1 (22.11), then 1.2.
func AppBackupVersionFor(clusterVersion string) string {
	return releaseDayTwo[ReleaseFor(clusterVersion)].appBackup
}

// ExecutionHookVersion is the execution hook version this client sends.
func (c *Client) ExecutionHookVersion() string { return ExecutionHookVersionFor(c.clusterVersion) }

// AppSnapVersion is the snapshot version this client sends.
func (c *Client) AppSnapVersion() string { return AppSnapVersionFor(c.clusterVersion) }

// AppBackupVersion is the backup version this client sends.
func (c *Client) AppBackupVersion() string { return AppBackupVersionFor(c.clusterVersion) }
