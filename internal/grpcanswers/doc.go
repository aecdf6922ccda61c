// Package grpcanswers serves the provider over go-plugin as tf6server.Serve does, with the
// known answers (internal/knownanswers) taken on the gRPC path, before tf6server sees the
// request.
//
// tf6server builds a logging context for every request (new loggers, a random request ID,
// a stop context): in a steady plan of a fleet, a seventh of the provider's CPU, spent on
// requests whose answers are known and whose logs nobody asked for. A unary interceptor
// reads the four requests the known answers take (a resource's validation, plan, read and
// state upgrade) from their protocol messages, as tf6server reads them, and writes a known
// answer as tf6server would. Everything else, and every request of a process whose
// environment asks for any log (Quiet), goes through tf6server as before; a request whose
// known answer was sought and not found goes on marked (knownanswers.Tried), so the
// framework answers it without the known answers being sought twice.
//
// The path steps aside when the protocol's messages are not the shapes it reads (a newer
// terraform-plugin-go with a field the path would drop): shapesKnown checks each message's
// fields at start. TestKnownAnswers_differential sends every request it compares through
// the path and through tf6server and compares the bytes.
package grpcanswers
