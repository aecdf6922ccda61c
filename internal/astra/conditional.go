package astra

import (
	"context"
	"fmt"
	"net/http"
)

// Conditional updates: no lost update. A PUT replaces the whole object, so one built from a
// stale copy silently reverts whatever anyone else (the web UI, NetApp's toolkit, another
// pipeline) wrote in between. Astra Control answers every GET with an ETag (hex MD5 of the
// object) and honours If-Match on PUT, answering 412 (problem 38) when the object changed.
// So every update is:
//
//	the object's own GET (never a shared listing), keeping its ETag
//	→ the planned change applied to that fresh copy
//	→ PUT with If-Match: that ETag
//	→ on 412: all of it again, at most MaxUpdateAttempts times in all.
//
// The fields the configuration sets are Terraform's; everything else is the fresh copy's.
// An answer without an ETag (older releases, proxies that strip it) still works: the PUT
// goes without If-Match.
//
// Every resource's update goes through UpdateConditionally with the client's ordinary Get
// and Update methods; nothing else is needed, because the ETag travels in the context:
//
//	updated, err := astra.UpdateConditionally(ctx, "bucket "+id,
//		func(ctx context.Context) (*astra.Bucket, error) { return client.GetBucket(ctx, id) },
//		func(b *astra.Bucket) { applyBucketPlan(b, plan) },
//		client.UpdateBucket)
//
// get must read with the client (getOne or getShared underneath, which OwnRead routes to a
// GET of its own and whose ETag is kept); put must send one PUT with the client (update
// underneath), which carries the If-Match. A precondition read before a DELETE uses
// OwnRead(ctx) alone.

// MaxUpdateAttempts bounds how often an update is tried while someone else keeps writing
// the object: each attempt is a GET and a PUT.
const MaxUpdateAttempts = 3

type (
	ownReadKey struct{}
	etagKey    struct{}
	ifMatchKey struct{}
)

// etagSlot receives the ETag of the GET answers under a context.
type etagSlot struct{ etag string }

// OwnRead marks reads under ctx as the precondition of a write: each is the object's own
// GET, never answered from a shared listing (share.go), however recent.
func OwnRead(ctx context.Context) context.Context { return context.WithValue(ctx, ownReadKey{}, true) }

func isOwnRead(ctx context.Context) bool { v, _ := ctx.Value(ownReadKey{}).(bool); return v }

// recordETag keeps the ETag of a successful GET for the update that asked for it.
func recordETag(ctx context.Context, method string, header http.Header) {
	if slot, ok := ctx.Value(etagKey{}).(*etagSlot); ok && method == http.MethodGet {
		slot.etag = header.Get("ETag")
	}
}

// ifMatch is the If-Match a PUT under ctx carries ("" for none).
func ifMatch(ctx context.Context, method string) string {
	if method != http.MethodPut {
		return ""
	}
	tag, _ := ctx.Value(ifMatchKey{}).(string)
	return tag
}

// UpdateConditionally updates one object without losing anyone else's write: get reads it
// (its own GET, ETag kept), apply sets the planned change on that copy, put PUTs it with
// If-Match. When the object changed in between (412), it starts again from a fresh read, at
// most MaxUpdateAttempts times; then it gives up with a *ChangedDuringApplyError. A failed
// read is a *ReadBeforeUpdateError (nothing was written). what names the object in errors,
// e.g. "cluster 6a0f...". apply may be nil when put builds its body from the fresh copy.
func UpdateConditionally[T any](ctx context.Context, what string, get func(context.Context) (*T, error),
	apply func(*T), put func(context.Context, *T) (*T, error)) (*T, error) {
	var lastErr error
	for attempt := 1; attempt <= MaxUpdateAttempts; attempt++ {
		slot := &etagSlot{}
		current, err := get(context.WithValue(OwnRead(ctx), etagKey{}, slot))
		if err != nil {
			return nil, &ReadBeforeUpdateError{What: what, Err: err}
		}
		if apply != nil {
			apply(current)
		}
		updated, err := put(context.WithValue(ctx, ifMatchKey{}, slot.etag), current)
		if !IsPreconditionFailed(err) {
			return updated, err
		}
		lastErr = err
	}
	return nil, &ChangedDuringApplyError{What: what, Attempts: MaxUpdateAttempts, Err: lastErr}
}

// ChangedDuringApplyError is an update that kept losing to another writer: the object
// changed between this apply's read and its PUT on every attempt. Nothing was overwritten.
type ChangedDuringApplyError struct {
	What     string
	Attempts int
	Err      error // the last 412
}

func (e *ChangedDuringApplyError) Error() string {
	return fmt.Sprintf("%s changed during the apply: someone else wrote it between this apply's read and its update, "+
		"%d times in a row, so this update was not applied and nothing was overwritten. The next plan shows the "+
		"difference between the object as it is now and the configuration; apply again to converge. Last answer: %v",
		e.What, e.Attempts, e.Err)
}

// ReadBeforeUpdateError is a failed read an update starts from: nothing was written.
type ReadBeforeUpdateError struct {
	What string
	Err  error
}

func (e *ReadBeforeUpdateError) Error() string {
	return "reading " + e.What + " before updating it: " + e.Err.Error()
}

func (e *ReadBeforeUpdateError) Unwrap() error { return e.Err }
