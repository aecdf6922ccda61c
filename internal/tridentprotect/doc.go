// Package tridentprotect renders an Astra Control estate (buckets, apps, protection
// policies, execution hooks) as the Trident protect custom resources that take over its
// protection: an AppVault per bucket, an Application per app, a Schedule per protection
// policy and an ExecHook per execution hook, as generic manifests and as YAML.
//
// It is pure: it reads plain structs of its own and calls nothing. It does not import the
// Astra client either, so the mapping can be read, tested and changed without the API's
// string-typed numbers, media types and unknown-member bookkeeping; the provider copies
// the few fields it needs. What cannot be carried over is reported as warnings, never
// dropped silently, and no credential value ever enters or leaves: an AppVault names a
// Secret the user creates.
//
// The field shapes follow NetApp's Trident protect documentation (see DocsRelease and
// DocsCommit); mapping.md is the user-facing table of the mapping.
package tridentprotect
