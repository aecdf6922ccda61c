package provider

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// After a create whose answer was lost, the provider looks for the object the request may
// have created. Matching by name is not enough: an object of that name that existed before
// the request (the POST was then refused, and its refusal lost) or one another resource of
// this run already holds would be adopted, and a later destroy would delete it. So an object
// is adopted only when the lost request can have created it: its creation timestamp is not
// before the request was sent, and no resource of this run holds its ID. Otherwise the
// outcome is reported as unknown and nothing is recorded.

// adoptionClockSkew is how far Astra Control's clock may lag this machine's before a new
// object looks older than the request that created it. Timestamps are NTP-grade on both
// sides; a larger lag makes adoption refuse (an unknown outcome to resolve by import),
// which is safe, where a larger allowance would risk adopting someone else's object.
const adoptionClockSkew = 5 * time.Second

// claimSet is the IDs of the objects this provider instance created or adopted in this run
// (one per CLI run and provider block), so one lost answer cannot adopt another resource's
// object.
type claimSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func newClaimSet() *claimSet { return &claimSet{ids: map[string]bool{}} }

func (c *claimSet) claim(s objectStamp) {
	if c == nil || s.ID == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids[s.key()] = true
}

func (c *claimSet) claimed(key string) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ids[key]
}

// objectStamp is what adoption checks of an object: its kind and ID (a managed cluster
// has its cluster's ID, so both are needed to tell them apart) and when it was created.
type objectStamp struct {
	Kind    string
	ID      string
	Created string // RFC 3339
	// Starting: the object has no timestamp yet because what the request starts is still
	// under way (a cluster being brought under management gets managedTimestamp when done).
	Starting bool
}

func (s objectStamp) key() string { return s.Kind + "/" + s.ID }

// lostCreate resolves a create whose answer was lost.
type lostCreate[T any] struct {
	sent   time.Time                         // when the POST was first sent
	claims *claimSet                         // objects held in this run
	find   func(context.Context) (*T, error) // the single object matching the request, nil if none
	stamp  func(*T) objectStamp
	// settle is how long to keep looking when the first search finds nothing: a server may
	// still be acting on a request the client gave up on (a timeout). The client's request
	// timeout: a server slower than twice that is reported as an unknown outcome.
	settle time.Duration
}

// searchBound is how long the whole search may take: the settle window, and the last look
// started in it (a request, at most the settle window again).
func searchBound(settle time.Duration) time.Duration { return 2 * settle }

// lookAgainEvery is how often the search repeats while it settles: ten looks at most.
func lookAgainEvery(settle time.Duration) time.Duration { return max(settle/10, 10*time.Millisecond) }

// search looks for the object the lost request may have created, under a context of its
// own that no interrupt cancels (an interrupt may cut the request after it reached the
// server), bounded by searchBound: while nothing is found it looks again until the settle
// window has passed, as a slow server may still be acting on the request. nil, nil: nothing
// was found.
func (l lostCreate[T]) search(ctx context.Context) (*T, error) {
	var found *T
	err := searchSettling(ctx, l.settle, func(ctx context.Context) (bool, error) {
		var err error
		found, err = l.find(ctx)
		return found != nil, err
	})
	return found, err
}

// searchSettling is search's work, once for every type: the generic functions of this
// package are thin wrappers where their bodies are long, so the binary holds one copy of
// the work instead of one per API type (each copy is resident memory in every provider
// process). find reports whether it found the object.
func searchSettling(ctx context.Context, settle time.Duration, find func(context.Context) (bool, error)) error {
	findCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), searchBound(settle))
	defer cancel()
	found, err := find(findCtx)
	for settled := time.Now().Add(settle); !found && err == nil && time.Now().Before(settled); {
		select {
		case <-findCtx.Done():
			err = findCtx.Err()
		case <-time.After(lookAgainEvery(settle)):
			found, err = find(findCtx)
		}
	}
	return err
}

// notAdoptable says why found cannot be the object the lost request created, "" if it can.
func (l lostCreate[T]) notAdoptable(found *T) string {
	return notAdoptable(l.claims, l.sent, l.stamp(found))
}

func notAdoptable(claims *claimSet, sent time.Time, s objectStamp) string {
	if claims.claimed(s.key()) {
		return fmt.Sprintf("the object found, ID %s, matches the request, but another resource of this run already holds "+
			"it in state, so it is not the one this request created", s.ID)
	}
	if s.Created == "" && s.Starting {
		return ""
	}
	created, err := time.Parse(time.RFC3339Nano, s.Created)
	if err != nil {
		return fmt.Sprintf("the object found, ID %s, matches the request, but its creation time (%q) cannot be read, so "+
			"nothing shows that this request created it", s.ID, s.Created)
	}
	if created.Before(sent.Add(-adoptionClockSkew)) {
		return fmt.Sprintf("the object found, ID %s, matches the request, but it was created at %s, before this request was "+
			"sent at %s, so it is not the one this request created", s.ID, created.UTC().Format(time.RFC3339), sent.UTC().Format(time.RFC3339))
	}
	return ""
}
