package astra

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Read sharing. Terraform refreshes every resource with its own Read, at most -parallelism
// at a time, so a plan of 1000 clusters would be 1000 GETs. Instead, reads of one collection
// (clusters of a cloud, all clusters, managed clusters) go through one leader per
// collection: while its request is in flight new reads queue, and the next round serves all
// of them with one list call (`filter=id in '...'`, at most maxBatchIDs per call). There is
// no wait window: a read that finds the leader idle is sent at once, as a plain GET when it
// is alone. Once a process has read wideAfter distinct objects of a collection it is
// refreshing a fleet, and the leader lists the whole collection instead, which later reads
// answer from while it is no older than ReadMaxAge.
//
// Rules that keep this correct:
//   - a listing started before this client's write to an object (or during it) never
//     answers for that object;
//   - an object missing from a listing is confirmed by its own GET (only a 404 means gone);
//   - a read inside Wait is answered only by a request that started after it was asked;
//   - a read an update or a delete starts from (OwnRead) is the object's own GET.

const (
	// maxBatchIDs bounds one `id in` list call: 50 UUIDs keep the URL under 2 kB.
	maxBatchIDs = 50
	// wideAfter is how many distinct objects of a collection a process reads before listing
	// the whole collection becomes the cheaper way to answer the next ones.
	wideAfter = 10
)

// DefaultReadMaxAge is the provider's default for how old a shared listing may be.
const DefaultReadMaxAge = 10 * time.Second

type freshKey struct{}

// withFresh marks reads under ctx as needing an answer newer than the question (waits).
func withFresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

func isFresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }

// sharing is the client's shared-read state. A nil *sharing (ReadMaxAge 0) shares nothing.
type sharing struct {
	maxAge time.Duration
	now    func() time.Time

	mu          sync.Mutex
	seq         uint64            // orders listings and writes
	written     map[string]uint64 // object ID -> seq of this client's last write (at its start and end)
	collections map[string]*collection
}

// collection is the shared-read state of one list path.
type collection struct {
	path, resource string
	cache          map[string]packedItem // by ID; each item's listing holds when its round started (at, seq)
	queue          []*pendingRead
	running        bool
	seen           map[string]struct{} // distinct IDs read (up to wideAfter), to detect a fleet refresh
	wideAt         time.Time           // start of the last whole-collection listing
	wideSeq        uint64
}

type pendingRead struct {
	ctx   context.Context
	id    string
	fresh bool
	done  chan struct{}
	raw   json.RawMessage // nil: not answered, the reader GETs the object itself
	err   error           // the object's own GET failed (a 404 is "gone")
}

func newSharing(maxAge time.Duration) *sharing {
	if maxAge <= 0 {
		return nil
	}
	return &sharing{maxAge: maxAge, now: time.Now, written: map[string]uint64{}, collections: map[string]*collection{}}
}

// wrote records a write by this client to object id; call it before the write and call
// what it returns after, so no listing that overlaps the write answers for the object.
func (s *sharing) wrote(id string) func() {
	if s == nil || id == "" {
		return func() {}
	}
	mark := func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.seq++
		s.written[id] = s.seq
		for _, col := range s.collections {
			delete(col.cache, id)
		}
	}
	mark()
	return mark
}

// read answers a GET of object id in the collection at path. handled false means the
// caller must GET the object itself (sharing off, the object missing from a listing, or the
// listing failed); otherwise raw is the object or err the failure of its own GET.
func (s *sharing) read(ctx context.Context, c *Client, path, resource, id string) (raw json.RawMessage, handled bool, err error) {
	if s == nil || isOwnRead(ctx) {
		return nil, false, nil
	}
	fresh := isFresh(ctx)
	s.mu.Lock()
	col := s.collections[path]
	if col == nil {
		col = &collection{path: path, resource: resource, cache: map[string]packedItem{}, seen: map[string]struct{}{}}
		s.collections[path] = col
	}
	if len(col.seen) < wideAfter { // past it, the count no longer matters
		col.seen[id] = struct{}{}
	}
	p := &pendingRead{ctx: ctx, id: id, fresh: fresh, done: make(chan struct{})}
	if len(s.answerFromListing(col, []*pendingRead{p})) == 0 {
		s.mu.Unlock()
		return p.raw, p.raw != nil, nil
	}
	col.queue = append(col.queue, p)
	if !col.running {
		col.running = true
		go s.lead(c, col)
	}
	s.mu.Unlock()
	select {
	case <-p.done:
		return p.raw, p.raw != nil || p.err != nil, p.err
	case <-ctx.Done():
		return nil, true, ctx.Err()
	}
}

// answerFromListing answers the reads that an earlier listing can (with the object, or, when
// a recent whole listing lacked it, by sending the reader to GET it itself) and returns the
// others. Reads queued while a listing was in flight are thus answered by it. Caller holds s.mu.
func (s *sharing) answerFromListing(col *collection, reads []*pendingRead) []*pendingRead {
	var rest []*pendingRead
	for _, p := range reads {
		if p.fresh {
			rest = append(rest, p)
			continue
		}
		if e, ok := col.cache[p.id]; ok && e.from.seq > s.written[p.id] && s.now().Sub(e.from.at) <= s.maxAge {
			raw, err := e.unpack()
			if err != nil {
				rest = append(rest, p)
				continue
			}
			p.raw = raw
		} else if !(col.wideSeq > s.written[p.id] && s.now().Sub(col.wideAt) <= s.maxAge) {
			rest = append(rest, p)
			continue
		}
		close(p.done)
	}
	return rest
}

// lead serves the collection's queue in rounds until it is empty.
func (s *sharing) lead(c *Client, col *collection) {
	for {
		s.mu.Lock()
		batch := s.answerFromListing(col, col.queue)
		col.queue = nil
		if len(batch) == 0 {
			col.running = false
			s.mu.Unlock()
			return
		}
		s.seq++
		start, at := s.seq, s.now()
		var ids []string
		wanted := map[string]bool{}
		wide := false
		for _, p := range batch {
			if !wanted[p.id] {
				wanted[p.id] = true
				ids = append(ids, p.id)
			}
			wide = wide || (!p.fresh && len(col.seen) >= wideAfter)
		}
		// A recent whole listing that lacked these (written since, or new) is not redone.
		wide = wide && (col.wideSeq == 0 || s.now().Sub(col.wideAt) > s.maxAge)
		s.mu.Unlock()

		// The round outlives any one reader: it runs with the first reader's values (its
		// logger) but not its cancellation.
		ctx := context.WithoutCancel(batch[0].ctx)
		var items map[string]packedItem
		var single error
		switch {
		case wide:
			var err error
			if items, err = c.listRaw(ctx, col.path, col.resource, ListOptions{}, false); err != nil {
				// A failed listing answers nothing, and is not tried again for ReadMaxAge:
				// its readers, and the next ones, GET their objects themselves.
				items = map[string]packedItem{}
			}
		case len(ids) == 1:
			var raw *json.RawMessage
			raw, single = getOne[json.RawMessage](ctx, c, col.path+"/"+url.PathEscape(ids[0]), col.resource)
			if single == nil {
				one := packer{plain: true}
				items = map[string]packedItem{ids[0]: one.pack(*raw)}
			}
		default:
			items = c.listByIDs(ctx, col, ids)
		}

		s.mu.Lock()
		for id, item := range items {
			if s.written[id] < start {
				item.from.at, item.from.seq = at, start
				col.cache[id] = item
			}
		}
		if wide && items != nil {
			col.wideAt, col.wideSeq = at, start
		}
		for _, p := range batch {
			if item, ok := items[p.id]; ok {
				p.raw, _ = item.unpack() // nil on failure: the reader GETs the object itself
			}
			if p.raw == nil && len(ids) == 1 {
				p.err = single
			}
			close(p.done)
		}
		s.mu.Unlock()
	}
}

// listByIDs lists ids with `id in` calls of at most maxBatchIDs each, in parallel. A failed
// call answers none of its IDs (their readers GET them themselves).
func (c *Client) listByIDs(ctx context.Context, col *collection, ids []string) map[string]packedItem {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out = map[string]packedItem{}
	)
	for len(ids) > 0 {
		n := min(len(ids), maxBatchIDs)
		chunk := ids[:n]
		ids = ids[n:]
		wg.Add(1)
		go func() {
			defer wg.Done()
			items, err := c.listRaw(ctx, col.path, col.resource,
				ListOptions{Filters: []Filter{{Field: "id", Op: "in", Value: strings.Join(chunk, ",")}}}, true)
			if err != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for id, raw := range items {
				out[id] = raw
			}
		}()
	}
	wg.Wait()
	return out
}

// listRaw GETs a collection (following metadata.continue) and returns its items by ID,
// undecoded (each reader decodes its own copy) and packed (plain: laid end to end); nil
// when the listing failed.
func (c *Client) listRaw(ctx context.Context, path, resource string, opts ListOptions, plain bool) (map[string]packedItem, error) {
	out := map[string]packedItem{}
	items := packer{plain: plain}
	err := c.eachListItem(ctx, path, resource, opts, func(raw json.RawMessage) error {
		id := itemID(raw)
		if id == "" {
			return nil // an item without an ID answers no read
		}
		out[id] = items.pack(raw)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// itemID is the id of a listed item, or "" when it has none: as encoding/json finds it, which
// a fleet's listings paid a full decode of every item for; scanID answers the plain cases.
func itemID(raw json.RawMessage) string {
	if id, ok := scanID(raw); ok {
		return id
	}
	var head struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(raw, &head)
	return head.ID
}

// getSharedJSON is one object of the collection at collectionPath as the service sent it,
// through the shared reads or with its own GET of itemPath: the known answers compare these
// bytes with those a read last matched, and decode them only when they differ.
func getSharedJSON(ctx context.Context, c *Client, collectionPath, itemPath, resource, id string) (json.RawMessage, error) {
	raw, handled, err := c.share.read(ctx, c, collectionPath, resource, id)
	if !handled {
		var got *json.RawMessage
		if got, err = getOne[json.RawMessage](ctx, c, itemPath, resource); got != nil {
			raw = *got
		}
	}
	if err != nil {
		return nil, err
	}
	noteAnswer(ctx, id, raw)
	return raw, nil
}

// WithAnswerNotes is ctx asking every read of a shared object (a cluster, a managed cluster,
// a credential...) made with it to hand note the object's ID and its bytes as the service
// sent them, as it decodes them: the known answers seal the bytes of the answer a read
// converted (internal/knownanswers, AnswerBytesReader).
func WithAnswerNotes(ctx context.Context, note func(id string, raw []byte)) context.Context {
	return context.WithValue(ctx, answerNotesKey{}, note)
}

type answerNotesKey struct{}

func noteAnswer(ctx context.Context, id string, raw []byte) {
	if note, ok := ctx.Value(answerNotesKey{}).(func(string, []byte)); ok {
		note(id, raw)
	}
}

// getShared reads one object of the collection at collectionPath through the shared reads,
// or with its own GET of itemPath.
func getShared[T any](ctx context.Context, c *Client, collectionPath, itemPath, resource, id string) (*T, error) {
	if _, noting := ctx.Value(answerNotesKey{}).(func(string, []byte)); !noting {
		raw, handled, err := c.share.read(ctx, c, collectionPath, resource, id)
		if !handled {
			return getOne[T](ctx, c, itemPath, resource)
		}
		if err != nil {
			return nil, err
		}
		return decodeShared[T](c, itemPath, raw)
	}
	raw, err := getSharedJSON(ctx, c, collectionPath, itemPath, resource, id)
	if err != nil {
		return nil, err
	}
	return decodeShared[T](c, itemPath, raw)
}

func decodeShared[T any](c *Client, itemPath string, raw json.RawMessage) (*T, error) {
	out := new(T)
	if err := c.decodeSharedInto(itemPath, raw, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *Client) decodeSharedInto(itemPath string, raw json.RawMessage, out any) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("GET %s: decoding the answer: %w", c.accountPath+itemPath, err)
	}
	return nil
}
