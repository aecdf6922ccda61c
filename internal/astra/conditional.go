package astra

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
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
// The fields the plan changes are Terraform's; everything else is the fresh copy's.
//
// ETag and If-Match rest on one page of NetApp's automation docs (the published OpenAPI
// declares neither header, and no NetApp client sends If-Match), so a condition must never
// lock a user out:
//   - an answer without an ETag (older releases, proxies that strip it), or with a weak one
//     (W/…: RFC 9110 compares If-Match strongly, and a compressing proxy weakens tags), is
//     written without If-Match, said at debug level;
//   - after a 412, when the fresh GET answers the very ETag that was just refused, the
//     service (or a proxy) issues tags it never matches: the object is written without a
//     condition for the rest of the run, and the caller is warned once (Notes);
//   - Config.NoConditionalWrites turns conditions off altogether.
//
// Every resource's update goes through UpdateConditionally with the client's ordinary Get
// and Update methods; nothing else is needed, because the ETag travels in the context:
//
//	updated, err := astra.UpdateConditionally(ctx, client, "bucket "+id,
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
	notesKey   struct{}
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

// Notes collects what the client wants the user told about the calls made under a
// context (WithNotes): warnings a resource turns into diagnostics.
type Notes struct {
	mu       sync.Mutex
	warnings []string
}

// WithNotes returns a context whose calls write their notes to the returned Notes.
func WithNotes(ctx context.Context) (context.Context, *Notes) {
	n := &Notes{}
	return context.WithValue(ctx, notesKey{}, n), n
}

// Warnings are the warnings noted so far, in order.
func (n *Notes) Warnings() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.warnings...)
}

func warn(ctx context.Context, text string) {
	if n, ok := ctx.Value(notesKey{}).(*Notes); ok {
		n.mu.Lock()
		n.warnings = append(n.warnings, text)
		n.mu.Unlock()
	}
}

// conditions remembers, for one client (one provider instance, one CLI run), the objects
// written without If-Match because their service refused their own fresh ETag.
type conditions struct {
	off           bool // Config.NoConditionalWrites
	mu            sync.Mutex
	unconditioned map[string]bool // by UpdateConditionally's what
}

// stop writes what without a condition from now on; true the first time (warn once).
func (c *conditions) stop(what string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.unconditioned[what] {
		return false
	}
	if c.unconditioned == nil {
		c.unconditioned = map[string]bool{}
	}
	c.unconditioned[what] = true
	return true
}

func (c *conditions) stopped(what string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.off || c.unconditioned[what]
}

// condition is the If-Match to send with a PUT built from a GET that answered tag: none when
// conditions are off for the object, or the tag is absent or weak (said at debug level).
func (c *Client) condition(ctx context.Context, what, tag string) string {
	reason := ""
	switch {
	case c.conds.stopped(what):
		return ""
	case tag == "":
		reason = "the read answered no ETag"
	case strings.HasPrefix(tag, "W/"):
		reason = "the read answered a weak ETag (" + tag + "), which If-Match never matches"
	default:
		return tag
	}
	tflog.SubsystemDebug(c.logContext(ctx), LogSubsystem, "updating "+what+" without If-Match: "+reason)
	return ""
}

// UpdateConditionally updates one object without losing anyone else's write: get reads it
// (its own GET, ETag kept), apply sets the planned change on that copy, put PUTs it with
// If-Match. When the object changed in between (412), it starts again from a fresh read, at
// most MaxUpdateAttempts times; then it gives up with a *ChangedDuringApplyError. A failed
// read is a *ReadBeforeUpdateError (nothing was written). what names the object in errors,
// e.g. "cluster 6a0f..."; it is also the key under which c remembers an object written
// without a condition. apply may be nil when put builds its body from the fresh copy.
func UpdateConditionally[T any](ctx context.Context, c *Client, what string, get func(context.Context) (*T, error),
	apply func(*T), put func(context.Context, *T) (*T, error)) (*T, error) {
	var applyAny func(any)
	if apply != nil {
		applyAny = func(current any) { typed, _ := current.(*T); apply(typed) }
	}
	updated, err := c.updateConditionally(ctx, what, func(ctx context.Context) (any, error) { return get(ctx) }, applyAny,
		func(ctx context.Context, current any) (any, error) { typed, _ := current.(*T); return put(ctx, typed) })
	out, _ := updated.(*T)
	return out, err
}

// updateConditionally is UpdateConditionally's work, once for every type (see decodeItemInto).
func (c *Client) updateConditionally(ctx context.Context, what string, get func(context.Context) (any, error),
	apply func(any), put func(context.Context, any) (any, error)) (any, error) {
	var lastErr error
	refused := ""
	for attempt := 1; attempt <= MaxUpdateAttempts; attempt++ {
		slot := &etagSlot{}
		current, err := get(context.WithValue(OwnRead(ctx), etagKey{}, slot))
		if err != nil {
			return nil, &ReadBeforeUpdateError{What: what, Err: err}
		}
		if refused != "" && slot.etag == refused && c.conds.stop(what) {
			warn(ctx, fmt.Sprintf("Astra Control refused the update of %s (412, precondition failed) although it carried "+
				"the ETag the service had just answered, and a fresh read answers that same ETag again: the service, or a "+
				"proxy in front of it, issues ETags it never matches. For the rest of this run %s is written without "+
				"If-Match, so a change someone else makes between this provider's read and its write is overwritten. If "+
				"this happens on every run, set the provider's conditional_writes = false (or ASTRA_CONDITIONAL_WRITES=false) "+
				"and check the proxy in front of Astra Control.", what, what))
		}
		if apply != nil {
			apply(current)
		}
		tag := c.condition(ctx, what, slot.etag)
		updated, err := put(context.WithValue(ctx, ifMatchKey{}, tag), current)
		if !IsPreconditionFailed(err) {
			return updated, err
		}
		lastErr, refused = err, tag
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
