// Package astra is the one client through which the provider talks to NetApp Astra Control
// (the SaaS Astra Control Service and the on-premises Astra Control Center).
//
// It owns everything HTTP: paths, media types, TLS, retries, problem bodies and logging.
// Callers see typed objects, typed errors and a waiter; they never build URLs or parse JSON.
//
// The real service is looser than its published OpenAPI documents (string booleans,
// mixed-case enums, PUT answering 200 with a body where 204 is documented, members the
// schema does not list), so decoding is tolerant and unknown members are kept and sent
// back on update.
//
// Updates never lose anyone else's write: UpdateConditionally (conditional.go) reads the
// object with its own GET, applies the planned change to that fresh copy and PUTs it with
// If-Match, starting again from a fresh read when the object changed in between. Every
// resource's update goes through it; a precondition read before a DELETE uses OwnRead.
package astra
