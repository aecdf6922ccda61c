// Package astrasim is an in-memory NetApp Astra Control that speaks the REST API of the
// paths the provider uses (clouds, clusters, managedClusters, credentials, storageClasses,
// buckets, apps and their protection policies, snapshots and backups, execution hooks and
// hook sources) for one published API release, so the provider can be tested,
// demonstrated and run in CI without a real Astra Control.
//
// It is written from the published OpenAPI documents (internal/apispec) and the research
// notes on the real service, never from the client package: the two check each other.
// Every POST/PUT body is validated against the release's published schema for the body's
// `version`; answers are the service's problem documents (string `status`, correlationID).
//
// Decisions where the published material is silent (each is tested):
//   - A wrong but well-formed account ID in the path answers 403 problem 14 ("Unauthorized
//     access") whose detail names x-pcloud-accountid, as actoolkit expects; a malformed one
//     answers 400 problem 33. A malformed resource ID in the path answers 400 problem 35.
//   - Roles: viewer reads only; member writes clusters, managedClusters and credentials;
//     admin and owner also write clouds. A refused write is 403 problem 11, with
//     requiredRole and role beside the detail the documents pin (authorization.go).
//   - Kubeconfig credentials: keyStore must hold exactly one key, "base64", with a
//     base64-encoded JSON kubeconfig of exactly one cluster and one context; anything else
//     is 400 problem 9 (extended validation, the problem the spec lists for credentials)
//     naming keyStore.base64. Problem 63 ("Kubeconfig not valid") is kept for a credential
//     that cannot reach its cluster (valid "false", or a server host under ".invalid") when
//     a cluster is added with it. Lenient mode also accepts a YAML kubeconfig.
//   - Lenient mode stores the members of a cluster or credential that no published release
//     has and answers them back, as a newer Astra Control would; every PUT replaces them with
//     those it carries (a full-object PUT), so a client that drops them is seen to drop them.
//   - DELETE of a cluster that is managed (or being managed/unmanaged) is 409 problem 10
//     with invalidFields [managedState]; DELETE of a managedCluster whose inUse is "true"
//     is 409 problem 10 with invalidFields [inUse] whose reason names the managed apps.
//   - DELETE of a credential that a cluster uses succeeds, as the service documents ("may
//     break resources relying on the credential"): those clusters go to state "removed".
//   - A PUT changes only the fields it carries: omitted fields keep their values (the
//     spec's own PUT examples carry only type and version). Read-only fields are ignored;
//     a different id, cloudType or keyType is 409 problem 10.
//   - cloudType is answered "GCP", "Azure", "AWS" or "private" as the real service does;
//     the response check used by tests compares it case-insensitively, the one documented
//     deviation from the published (lowercase) enum that the simulator reproduces.
//   - Bodies whose version has no published schema (cluster 1.0-1.2, managedCluster 1.0,
//     1.1, 1.4-1.6, cloud/credential/storageClass 1.0) are checked against the oldest
//     published schema whose version enum lists that version.
//   - POST managedClusters: an unknown cluster ID or an ineligible cluster (with its
//     reasons) is 400 problem 9 naming id; an already managed cluster 409 problem 10; a
//     cluster still being discovered, unmanaged or removed 409 problem 164 (retry later);
//     a defaultBucketID on a cluster without the neptuneV1 capability 400 problem 171.
//   - POST of a kubeconfig credential for a cluster Astra already reaches through another
//     existing credential is 409 problem 44 ("Kubeconfig exists").
//   - Throttling (the 429 fault) answers an RFC 7807 "about:blank" problem: the catalogue
//     has no problem type for it, since Astra documents no 429.
//   - The 22.11 document's problem schemas require a "description" member (the later ones
//     "detail"); on 22.11 problems carry both, with the same text.
//
// Day-two objects (snapshots, backups, hooks; each decision is in the file named, and tested):
//   - A snapshot answers "discovering" first, a backup "pending" (what the service answered
//     in NetApp's toolkit examples); both are "running" half way through Delays.Snapshot or
//     Delays.Backup and end "completed" or "failed" (runs.go). Only one snapshot and one
//     backup of an app run at a time: a POST meanwhile is 409 problem 148 (for a backup too:
//     the 24.02 spec lists 148, not the catalogue's 107, for POST appBackups), a policy's
//     firing skips it.
//   - Refusals: an app not ready, a snapshot 409/112, a backup 409/10 (the spec lists only
//     10/131/143/148 for POST appBackups; the catalogue's 112); an app at risk (its storage
//     cannot snapshot) 409/149 (snapshot) or 409/131 (backup); a duplicate name 409/176 or
//     409/143; a backup's snapshotID of another app or none 400/9, one still being taken
//     409/148 and one failed 409/10 (the catalogue's 111). Where the spec names a problem
//     its pinned detail is answered. The real service may answer the catalogue's numbers
//     (107, 111, 112, 142, 148 on a snapshot's DELETE, 164): a client should take either
//     number for the same condition, as this provider does (issue 43, item 6).
//   - A backup names no bucket: the managed cluster's default bucket, the cloud's, then the
//     oldest available bucket; none is 400 problem 170 (bucketuse.go). A backup into a
//     bucket that is not available or is in Options.UnreachableBuckets is accepted, then
//     fails. Snapshots carry a bucketID only at appSnap 1.3 on neptuneV1 clusters (else 177).
//   - DELETE of a running backup cancels it (Astra Control Center's "Cancel backups",
//     use/protect-apps: a running backup can be cancelled, a pending one cannot; the API's
//     only cancel is this DELETE, whose one listed 409 is 128 "Backup cancellation not
//     allowed"); it goes as an ended one does, through "deleting" where the version lists
//     it. A pending backup is 409/128 ("A
//     pending backup can't be canceled", the one problem the spec lists for this DELETE).
//     A failed one is deleted with or without the header Force-Delete: true (optional in
//     the automation docs' "Delete a backup" workflow; astraSDK never sends it); a real
//     service that wants the header may refuse with 142 (catalogue) or 128 (spec). Of a
//     snapshot being taken, or one a running backup is taken from, 409/144 (the spec's one
//     problem for it; the catalogue's reading gives 148 for the first). Snapshots are never
//     cancelled: nothing NetApp publishes says they can be. With Delays.Delete, a deleted snapshot or backup whose
//     version's answer lists state "deleting" (24.02: appSnap 1.3, appBackup 1.2) stays in
//     that state for the delay, its name taken (176/143) and its bucket in use (83). Deleting a bucket that holds backups or that a policy
//     names is 409/83 naming them.
//   - Clones and in-place restores (clones.go): a POST of an app naming sourceAppID (with
//     sourceClusterID), a snapshotID or a backupID is a clone, provisioning, discovering,
//     then ready (Delays.Restore; NetApp's captured answers' stateTransitions), in namespaces it creates (one that exists is 400/9); without any
//     namespaceMapping its one namespace is named after the clone (NetApp's toolkit docs,
//     clone), and a source of several namespaces needs a mapping (400/9: the docs name one
//     namespace only; the real service may differ); an unknown destination storage class is
//     400/156, a live clone of an app at risk 409/161, a snapshot or backup still being taken
//     409/148 and one failed 409/10 (the spec lists 10/148/151/155/161 for the clone POST;
//     the catalogue's reading is 164, which an in-place restore still answers). A PUT naming a snapshot or backup of the app restores it in place only with
//     the header forceUpdate: true (else 400/9; the header on any other PUT is 400/12):
//     restoring, discovering, then ready; a backup running refuses it, 409/152. While a
//     clone or restored app is not ready, a snapshot or backup of it is 409/112.
//   - Unmanaging an app (unmanage.go; the sources disagree, both readings are modelled): by
//     default as NetApp's REST workflow "Unmanage an app" (astra-automation wf_unmanage_app)
//     says, its backups are not removed: they stay in their bucket, listed and deleted under
//     /topology/v1/appBackups, and the bucket's DELETE is 409/83 until they are gone; its
//     snapshots stay on the cluster where no Astra path reaches them (forgotten). With
//     Options.UnmanageDeletesBackups (-unmanage-deletes-backups), as Astra Control Center's
//     use/unmanage page says, they are deleted with it, and a failed backup refuses the
//     unmanage, 409/142. The hooks go either way; a run in progress refuses it, 409/157
//     (backup) or 409/148 (snapshot). A user of the real service should expect either, and
//     delete an app's backups before unmanaging it (NetApp's cleanup scripts do).
//   - Options.InFlightReady (-in-flight-ready): a snapshot or backup in flight (its first
//     state and running) answers state "ready", as NetApp's toolkit docs show snapshots and
//     backups listed while in flight (netapp-astra-toolkits docs), outside the 24.02 enum
//     (the response check takes it as "running"). The run itself is unchanged. A client
//     must take "ready" for "not finished yet", only "completed" for done.
//   - Hook sources: a duplicate name is 400/9 (NetApp's toolkit docs say 400); the base64
//     source is at most 131072 characters (the schema's encoded bound) and its script holds
//     no NUL, no invalid UTF-8 and no carriage return (400/9 naming source);
//     sourceMD5Checksum is the MD5 of the base64 text as sent (as a real answer shows); a
//     source a hook uses is 403/72, the problem the spec lists.
//   - Hook sources' and hooks' PUTs replace, as apps' and schedules' do (replaceOnPut): what
//     the object cannot do without is kept when left out, the rest left out goes.
//   - Execution hooks: a "netapp" hook is 403/73; a name taken 409/10; a PUT may change
//     everything but appID and hookType (409/10); restore and failover hooks are post only;
//     failover needs executionHook 1.3; "arguments": null (what actoolkit sends for a hook
//     without arguments, outside the schema) is taken as none. matchingContainers come from a modelled set of
//     containers, one per namespace scope entry (containers.go). Problems 162 and 168 are
//     never answered (no replication, hooks always enabled).
//   - POST answers (postanswers.go) carry what NetApp's captured answers carry, not what a
//     GET gives: a backup's is id, name, bucketID, state, stateUnready and metadata (no
//     totalBytes, progress, timestamps or snapshotID; toolkit examples/gitlab and
//     docs/toolkit/create); a hook's has no matchingContainers or matchingImages (docs/toolkit
//     create and copy). The spec's POST response schemas allow more; the captures win.
//   - Selective restore (restorefilter.go): an in-place restore's restoreFilter (app 2.2,
//     23.05 to 24.02; ACC's restore page; actoolkit restore/ipr --filterSet) restores
//     the modelled assets (a Pod, a PVC "data-<pod>", a Service and a StatefulSet per
//     modelled container) that its GVKN filters select, as Sim.Restored tells; an empty
//     filter, a kind no modelled asset has, or a set-based label selector is 400/9 naming
//     it. Names follow the schema's type_dns_1123 (no dots, 63 at most) though Kubernetes
//     names may have dots (actoolkit's asset list shows some): the schema wins. Problem 155
//     is never answered (nothing documents when an app is not eligible).
//   - Hook runs (hookruns.go): pre-backup, pre-snapshot, post-snapshot, post-backup; a
//     backup taking its own snapshot runs the snapshot hooks too; a failing hook (its source
//     in Options.FailHookSources) leaves the run completing with hookState "failed".
//   - Hook time limit and restore hooks (hooktimeout.go; ACC's execution hooks page): a hook
//     whose script runs longer than Options.HookTimeout (25 minutes, the documented limit)
//     fails, and so does its snapshot (the page) or backup (the simulator's reading); how
//     long a script runs is Options.HookDurations (-hook-duration), and hooks take no time on
//     the simulator's clock. Post-restore hooks run after every clone (the source app's
//     hooks, on the clone's containers) and in-place restore (the app's own), soft failures;
//     the API shows no hookState on an app, so Sim.RestoreHooks tells tests what ran. A live
//     clone runs no snapshot hooks on its source (the page's scenarios 1 and 2 say it does;
//     not modelled).
//   - GET /k8s/v1/apps/{app_id}/appAssets (appassets.go) is in no published document, yet
//     astraSDK's getAppAssets calls it and actoolkit's clone and restore call that first:
//     it answers what that client reads (items with assetName, assetType, namespace, labels
//     and GVK; a metadata object), the app's modelled assets. It is the one route besides
//     the account probe outside the documents: not in Sim.Routes, answers unchecked.
//   - Policies fire on a schedule clock Options.ScheduleSpeed times faster than real time
//     (scheduleclock.go, schedulerun.go), in UTC, taking a snapshot (snapshotRetention > 0)
//     and a backup from it (backupRetention > 0), named "<policy>-xxxxx" and created by the
//     null UUID; retention deletes the oldest completed ones; failed runs are kept; missed
//     firings are caught up at the next request, the last 64 at most. Options.PausePolicies
//     stops that clock for tests that assert exact object sets on the real clock.
//   - protectionState (protectionstate.go): atRisk, else protected with an enabled backup
//     policy and a completed backup less than 7 days old (schedule clock), else partial with
//     an enabled backup or snapshot policy or any completed snapshot or backup, else none.
//
// Identity and access (issue 47; users.go, rolebindings.go, groups.go, tokens.go,
// passwords.go, ldap.go, directory.go, authorization.go; research notes §4.14, §4.15):
//   - 23.07 is Astra Control Service (its document's title says "(ACS)"): Cloud Central
//     users only, answered pending, no LDAP groups or LDAP setting, only the owner removes
//     users. The other releases are Astra Control Center: local and LDAP users, active.
//   - Every configured token is a user with a binding of its role; the first owner's is
//     the account owner, whose binding can be neither removed nor demoted (403/11). API
//     tokens users create authenticate as their user until deleted (then 401/4). A role
//     is the most privileged of the user's binding and its LDAP groups' bindings.
//   - Deleting the last binding of a local or Cloud Central user deletes the user, its
//     tokens and password; a second binding for a principal is 409/10; a malformed role
//     constraint 400/9 naming roleConstraints[i]; group DNs are stored lower-cased.
//   - Role constraints apply to apps and what hangs on them (403/11, lists filtered) and
//     to namespace objects; constrained users may still manage clusters (ACC-DOCS).
//   - A local user's password is a passwordHash credential (8 characters at least, the
//     simulator's reading of an undocumented policy); only a digest is kept.
//   - The LDAP setting goes pending on a PUT and, Delays.LDAP later, valid or error against
//     the modelled directory (DirectoryHost, DirectoryBindPassword, SeededDirectory), whose
//     people and groups ldapUsers and ldapGroups list while LDAP is valid and enabled.
//
// Transitions (discover, manage, unmanage, remove, recollect, snapshots, backups, policy
// firings) happen at once unless a delay is configured; delayed transitions are applied
// lazily when a request or snapshot observes the clock (Options.Now), so tests with a fake
// clock are deterministic. No goroutine changes the state in the background.
package astrasim
