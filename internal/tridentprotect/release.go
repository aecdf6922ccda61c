package tridentprotect

// The Trident protect documentation the mapping follows: the trident-protect/ pages of the
// public NetAppDocs/trident repository at this commit (the docs of Trident and Trident
// protect 26.06, Helm chart 100.2606.0). A later release may add fields; none removed
// there so far would change what is rendered here.
const (
	DocsRelease    = "26.06"
	DocsCommit     = "b37dceb6f30a953a33325e519fabd4e8f6cdbe4e"
	DocsCommitDate = "2026-07-01"
	DocsRepository = "https://github.com/NetAppDocs/trident"
)

// APIVersion is the API group and version of every resource rendered.
const APIVersion = "protect.trident.netapp.io/v1"

// DefaultProtectNamespace is where Trident protect is installed by default; AppVaults and
// their Secrets live there.
const DefaultProtectNamespace = "trident-protect"

// Kinds rendered.
const (
	KindAppVault    = "AppVault"
	KindApplication = "Application"
	KindSchedule    = "Schedule"
	KindExecHook    = "ExecHook"
)
