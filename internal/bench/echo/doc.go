// Package echo is the fleet benchmark's echo floor: the fastest provider that could exist
// for the provider's schemas and values. Written on terraform-plugin-go alone (no
// framework), it serves the schemas `providers schema -json` printed for the real provider
// and answers every plan, apply and read with the values a real apply recorded (`show
// -json`), doing no other work: no API, no waiting, no validation.
//
// Requests carry no resource address, so a create, an apply or a data source read finds
// its recorded instance by what its configuration sets: the key is the set of top-level
// attributes the config gives a non-null value (leaving out write-only attributes, which
// state never holds, and nested attributes, whose recorded values carry computed parts the
// config lacks), with their values in a canonical form (map keys and set elements sorted).
// A recorded instance has the same values there, since a provider keeps what the config
// sets. The first request of a type with a given set of attribute names indexes that
// type's recorded instances by it, once; every later request is one map lookup. Of two
// recorded instances with the same key, the first in `show -json` order answers.
//
// The recorded state is read on the first request that needs it (a create, an apply with
// unknown values or a missing identity, a data source read, an import), so runs that
// never create (a refresh and a plan of an existing state) never read it. The bench hands
// it over compiled (Compile: each object as msgpack, the canonical form of its key
// attributes), which a process loads in milliseconds where decoding `show -json` would
// take seconds at thousands of objects; `show -json`'s output itself works too.
//
// Every schema the JSON lists is served: the provider's, resources', data sources',
// ephemeral and list resources', identities' and actions'; one with functions or state
// stores is refused, as a configuration using them would fail in a confusing way.
//
// What each RPC answers (see resource.go, datasource.go and server.go):
//   - PlanResourceChange: a create gets the proposed new state with every null computed
//     attribute set to the recorded value (unknown if the key has unknown values, as a
//     real provider leaves them); an update, a no-op or a destroy gets the proposed new
//     state itself, which Terraform built from the config and prior state and which is
//     the prior state when nothing changed.
//   - ApplyResourceChange: the planned state, its unknown values (if any) set to the
//     recorded ones; the recorded identity.
//   - ReadResource: the current state, private data and identity, unchanged.
//   - UpgradeResourceState and UpgradeResourceIdentity: the raw JSON as is (the protocol
//     takes JSON as well as msgpack).
//   - ImportResourceState: the recorded instance with that `id`, or whose state
//     attributes match the identity given.
//   - ReadDataSource: the config with every null computed attribute set to the recorded
//     value.
//   - ValidateActionConfig and PlanAction: nothing (no diagnostics), so a configuration
//     declaring an action validates and plans; InvokeAction: an error diagnostic, as
//     nothing records an action's effects (the fleet invokes none).
//   - OpenEphemeralResource: an error diagnostic, as nothing records ephemeral values;
//     ListResource: no results.
//
// Each answer passes the checks Terraform (1.5 to 1.16) and OpenTofu make of a provider:
// a plan keeps every configured value, known or not, and fills only computed attributes
// the config leaves null (a create may plan anything there); an apply keeps every known
// planned value and answers only the unknown ones; a data source keeps its config; an
// identity is wholly known and of the identity schema's type (all Terraform 1.16 checks
// of one; 1.5 has no identities, and its schema JSON lists none, so none are served); an
// upgraded state in JSON is decoded by every one of them as msgpack would be.
package echo
