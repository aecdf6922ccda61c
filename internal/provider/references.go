package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/astra-control/terraform-provider-astra/internal/astra"
)

// A reference to another Astra Control object (a cloud_id, a credential_id) that is known at
// plan time is checked then, with one read (shared with the plan's other reads of the same
// collection): a well-formed ID of nothing is refused before the apply creates anything.
// Only a 404 refuses; any other failure leaves the check to the apply. An object found once
// is not read again in the same run: Terraform plans a create twice (the plan, then again at
// apply), and a fleet's thousand clusters name one cloud, so creates pay for their checks
// once per object, not per plan and resource. Within a provider process the record is
// objectReads; between the plan's process and the apply's, both started by one CLI run,
// it is the run's file (reference_run.go). An object this configuration created or adopted
// in the run is not read at all: the apply plans a cluster again once its credential exists,
// and the create's answer already said it does.

// reference is one ID argument and how to read what it names.
type reference struct {
	attribute, what, listedBy string
	get                       func(ctx context.Context, id string) error
}

// seenObjects is one provider configuration's view of what the checks found: the
// process's reads, and the run's file when a CLI started this process.
type seenObjects struct {
	reads *objectReads
	// scope is the configuration's endpoint and account: the same ID elsewhere is another object.
	scope string
	run   *runMemory // nil: this process is the whole run (tests, debuggers) or has no file
	// claims are the objects this configuration created or adopted in this run: a reference
	// to one is not read (the apply's plan of a cluster names the credential just created).
	claims *claimSet
}

// objectReads are the objects this provider process found by a reference check, by scope,
// kind and ID, with the reads under way: checks of one object that run together (a fleet's
// clusters all name one cloud) wait for one read. A deletion since is the apply's to
// report, as for any check made at plan time.
type objectReads struct {
	mu    sync.Mutex
	reads map[string]*referenceRead
}

// referenceRead is one read of a referenced object; err is set once done is closed.
type referenceRead struct {
	done chan struct{}
	err  error
}

// found reads what a reference names, unless this run found it already or this process
// is reading it now; only a read that succeeds is remembered, so a failed one is tried again.
func (s *seenObjects) found(ctx context.Context, ref reference, id string) error {
	if s == nil || s.reads == nil {
		return ref.get(ctx, id)
	}
	if s.claims.claimed(objectStamp{Kind: ref.what, ID: id}.key()) {
		return nil
	}
	key := s.scope + "\x00" + ref.what + "\x00" + id
	t := s.reads
	t.mu.Lock()
	if t.reads == nil {
		t.reads = map[string]*referenceRead{}
	}
	read, ongoing := t.reads[key]
	if !ongoing {
		read = &referenceRead{done: make(chan struct{})}
		t.reads[key] = read
	}
	t.mu.Unlock()
	if ongoing {
		select {
		case <-read.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		if read.err == nil {
			return nil
		}
		return ref.get(ctx, id) // that read failed: this check reads for itself
	}
	if !s.run.has(key) { // the run's earlier process (the plan's) found it: no read
		read.err = ref.get(ctx, id)
		if read.err == nil {
			s.run.add(key)
		}
	}
	if read.err != nil {
		t.mu.Lock()
		delete(t.reads, key)
		t.mu.Unlock()
	}
	close(read.done)
	return read.err
}

// referenceProblems refuses each reference in refs whose planned value is known, differs
// from prior (unchecked values only: a quiet plan reads nothing) and names nothing.
func referenceProblems(ctx context.Context, seen *seenObjects, refs []reference, planned, prior map[string]types.String) []attrProblem {
	var problems []attrProblem
	for _, ref := range refs {
		v := planned[ref.attribute]
		if !isSet(v) || v.Equal(prior[ref.attribute]) {
			continue
		}
		if err := seen.found(ctx, ref, v.ValueString()); astra.IsNotFound(err) {
			problems = append(problems, attrProblem{attr: ref.attribute, summary: "No such " + ref.what,
				detail: fmt.Sprintf("%s %q names no %s of this Astra Control account (%s). Use the ID of an existing %s: %s list them.",
					ref.attribute, v.ValueString(), ref.what, shortProblem(err), ref.what, ref.listedBy)})
		}
	}
	return problems
}

// shortProblem is an API error's status, title and problem number, without the path.
func shortProblem(err error) string {
	var e *astra.APIError
	if errors.As(err, &e) {
		s := fmt.Sprintf("%d %s", e.StatusCode, e.Title)
		if e.Problem != 0 {
			s += fmt.Sprintf(", problem %d", e.Problem)
		}
		return s
	}
	return err.Error()
}
