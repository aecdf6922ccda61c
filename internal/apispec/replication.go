package apispec

// Replication resources (issue 46): NetApp's published documents hold them in every
// release, appMirror 1.0 in 22.11 and 23.05, 1.0 and 1.1 from 23.07; storageBackend 1.0 to
// 1.2 in 22.11, to 1.3 from 23.05 (research notes §4.12, §4.13).
const (
	AppMirror      = "appMirror"
	StorageBackend = "storageBackend"
)
