// Package knownanswers is the protocol layer between tfprotov6 and the framework's provider
// server. It answers the requests whose answers it can prove the framework would give, at a
// fraction of the framework's cost, and hands every other request to the framework.
//
// It answers, for each resource type whose schema passes the rules derived at start:
//   - a read that finds the answer the state was last written from: the resource's
//     AnswerReader fetches it, and the seal RecordAnswer left in private state matches it
//     (reads.go); for an AnswerBytesReader, first matched on the bytes of the state and the
//     answer a read last sealed, without decoding either;
//   - the plan of a create, and a plan that proposes the prior state, when the resource's
//     PlanChecker has nothing to say (plans.go);
//   - the upgrade of a state already at the schema's version (upgrades.go);
//   - the apply of a create, around the resource's own Create, when the framework would pass
//     its outcome on unchanged; any other outcome is replayed through the framework, so
//     Create still runs once (applies.go);
//   - a read of a changed object, of a type whose creates it answers: the resource's own
//     Read runs, called as the framework calls it, and its outcome is answered when the
//     framework would pass it on unchanged; any other outcome (an error, an object gone, an
//     identity changed) is read again by the framework (direct_read.go);
//   - the validation of a configuration every check passes silently, for a resource that
//     declares its checks pure (PureValidator): the layer runs the framework's checks
//     itself, without its schema walk (validations.go).
//
// It refuses, leaving them to the framework, every request whose answer depends on what it
// does not model:
//   - every request of a type whose schema holds blocks, plan modifiers outside its list,
//     nested defaults, dynamic values or a ModifyPlan that may change plans, or whose
//     PlanChecker the framework never calls: the framework's steps there are not known
//     beforehand (TestKnownAnswers_coverage lists the types refused and why);
//   - the plan and apply of an update, deletes and imports: what they answer comes from the
//     plan modifiers and the resource's own methods, which only the framework runs in full;
//   - every action request (validate, plan, invoke): an invocation starts an operation and
//     has no earlier answer to reuse;
//   - a read of a changed object of any other type, or of one sealed by another build: the
//     resource's conversion must run, and another build may convert differently;
//   - any plan a PlanChecker reports on, even with a warning, so the framework reports it;
//   - any validation a check reports on, even with a warning, or that holds a null or unknown
//     nested object, and every validation of a type that does not declare PureValidator (a
//     new resource, until it does), of a data source or of the provider's configuration;
//   - private state the framework would refuse or act on (its own keys, an import's);
//   - every read and plan once Configure deferred: the framework then answers Deferred;
//   - every request when ASTRA_KNOWN_ANSWERS is off (or false, 0), so that a suspected
//     difference can be ruled out (switch.go); a value it does not take is refused at
//     Configure.
//
// Resources take part through the interfaces of participants.go, found when the server
// starts; the package imports nothing of the provider. What keeps it honest is the
// differential test (TestKnownAnswers_differential, run longer by `make fuzz`): random
// requests built from every resource's schema, with failed, removed and unreachable objects
// and every private key a resource writes, go to this layer and to the bare framework
// server, which must answer alike; a coverage pass first makes sure each kind of request
// the layer answers was answered by it for every type (coverage_test.go). `make test` runs one acceptance pass with the layer off,
// so the framework's path is exercised end to end as well.
//
// The provider binary seeks the validations', plans', reads' and upgrades' answers before
// tf6server sees the request (Answers, taken by internal/grpcanswers on the gRPC path); a
// request passed on from there is marked (Tried) and goes straight to the framework. The
// differential test sends each request it compares through that path and through
// tf6server, and compares the bytes (grpc_path_test.go).
package knownanswers
