// Package astrasim is an in-memory NetApp Astra Control that speaks the REST API of the
// cluster-related paths (clouds, clusters, managedClusters, credentials, storageClasses)
// for one published API release, so the provider can be tested, demonstrated and run in
// CI without a real Astra Control.
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
//     admin and owner also write clouds. A refused write is 403 problem 11.
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
// Transitions (discover, manage, unmanage, remove, recollect) happen at once unless a
// delay is configured; delayed transitions are applied lazily when a request or snapshot
// observes the clock (Options.Now), so tests with a fake clock are deterministic.
package astrasim
