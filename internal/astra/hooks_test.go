package astra

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/astra-control/terraform-provider-astra/internal/astrasim"
)

const script = "#!/bin/sh\necho \"$@\"\n"

func TestHookSourcesAgainstTheSimulator(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	ctx := context.Background()
	created, err := f.c.CreateHookSource(ctx, HookSourceCreate{Name: "freeze", Script: script, Description: "pre and post"})
	if err != nil {
		t.Fatal(err)
	}
	text, err := created.Script()
	if err != nil || text != script || created.SourceMD5Checksum != HookSourceChecksum(EncodeScript(script)) || created.Private.Value() || created.Preloaded.Value() {
		t.Fatalf("POST answer: %+v (%q, %v)", created, text, err)
	}
	// An update from a fresh read: a new script; the service computes the new checksum.
	updated, err := UpdateConditionally(ctx, f.c, "hook source "+created.ID,
		func(ctx context.Context) (*HookSource, error) { return f.c.GetHookSource(ctx, created.ID) },
		func(h *HookSource) { h.Source, h.Name = EncodeScript("#!/bin/sh\nexit 0\n"), "freeze-2" },
		f.c.UpdateHookSource)
	if err != nil || updated.Name != "freeze-2" || updated.SourceMD5Checksum != HookSourceChecksum(EncodeScript("#!/bin/sh\nexit 0\n")) || updated.Description != "pre and post" {
		t.Fatalf("after the update: %+v %v", updated, err)
	}
	// An empty description is sent, so it clears the description.
	cleared, err := UpdateConditionally(ctx, f.c, "hook source "+created.ID,
		func(ctx context.Context) (*HookSource, error) { return f.c.GetHookSource(ctx, created.ID) },
		func(h *HookSource) { h.Description = "" }, f.c.UpdateHookSource)
	if err != nil || cleared.Description != "" || cleared.Name != "freeze-2" {
		t.Fatalf("clearing the description: %+v %v", cleared, err)
	}
	if n, c := f.sim.Count("PUT", "/core/v1/hookSources/{hookSource_id}"), f.sim.CountConditional("PUT", "/core/v1/hookSources/{hookSource_id}"); n != 2 || c != 2 {
		t.Errorf("%d PUTs, %d conditional", n, c)
	}
	if found, err := f.c.FindHookSource(ctx, "freeze-2"); err != nil || found == nil || found.ID != created.ID {
		t.Fatalf("find: %+v %v", found, err)
	}
	if list, err := f.c.ListHookSources(ctx, ListOptions{}); err != nil || len(list) != 1 {
		t.Fatalf("list: %+v %v", list, err)
	}
	// The service's own rules, as typed errors.
	_, err = f.c.CreateHookSource(ctx, HookSourceCreate{Name: "crlf", Script: "echo\r\n"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Problem != 9 || len(apiErr.InvalidFields) != 1 || apiErr.InvalidFields[0].Name != "source" {
		t.Errorf("a script with carriage returns: %v", err)
	}
	hook, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "h", AppID: f.appID, HookSourceID: created.ID, Action: HookActionSnapshot, Stage: HookStagePre})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.c.DeleteHookSource(ctx, created.ID); ProblemNumber(err) != ProblemHookSourceInUse || !IsForbidden(err) {
		t.Errorf("deleting a source a hook runs: %v", err)
	}
	if err := f.c.DeleteExecutionHook(ctx, hook.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.c.DeleteHookSource(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
}

func TestExecutionHooksAgainstTheSimulator(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Release: "24.02"})
	ctx := context.Background()
	src, err := f.c.CreateHookSource(ctx, HookSourceCreate{Name: "freeze", Script: script})
	if err != nil {
		t.Fatal(err)
	}
	created, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "pre-snap", AppID: f.appID, HookSourceID: src.ID,
		Action: HookActionSnapshot, Stage: HookStagePre, Arguments: []string{"pre"},
		MatchingCriteria: []MatchingCriterion{{Type: "namespaceName", Value: "^default$"}}})
	if err != nil {
		t.Fatal(err)
	}
	// A POST answer has no matchingContainers (NetApp's captured answers): a GET has them.
	if created.Version != "1.3" || !created.Enabled.Value() || created.HookType != "custom" || len(created.MatchingContainers) != 0 {
		t.Fatalf("POST answer: %+v", created)
	}
	if got, err := f.c.GetExecutionHook(ctx, created.ID); err != nil || len(got.MatchingContainers) != 1 ||
		got.MatchingContainers[0].NamespaceName != "default" || len(got.MatchingImages) != 1 {
		t.Fatalf("GET answer: %+v %v", got, err)
	}
	// Created on the app's path, as NetApp's toolkit does; read, updated and deleted by ID.
	if n := f.sim.Count("POST", "/k8s/v1/apps/{app_id}/executionHooks"); n != 1 {
		t.Errorf("%d POSTs on the app's path", n)
	}
	updated, err := UpdateConditionally(ctx, f.c, "execution hook "+created.ID,
		func(ctx context.Context) (*ExecutionHook, error) { return f.c.GetExecutionHook(ctx, created.ID) },
		func(h *ExecutionHook) {
			h.Action, h.Stage, h.Enabled, h.Arguments = HookActionFailover, HookStagePost, BoolPtr(false), nil
		},
		f.c.UpdateExecutionHook)
	if err != nil || updated.Action != "failover" || updated.Enabled.Value() || len(updated.Arguments) != 0 {
		t.Fatalf("after the update: %+v %v", updated, err)
	}
	if n := f.sim.CountConditional("PUT", "/core/v1/executionHooks/{executionHook_id}"); n != 1 {
		t.Errorf("%d conditional PUTs on the account-wide path", n)
	}
	all, err := f.c.ListExecutionHooks(ctx, ListOptions{})
	if err != nil || len(all) != 1 {
		t.Fatalf("every hook: %+v %v", all, err)
	}
	mine, err := f.c.ListAppExecutionHooks(ctx, f.appID, ListOptions{})
	if err != nil || len(mine) != 1 || mine[0].ID != created.ID {
		t.Fatalf("the app's hooks: %+v %v", mine, err)
	}
	if found, err := f.c.FindExecutionHook(ctx, f.appID, "pre-snap"); err != nil || found == nil || found.ID != created.ID {
		t.Fatalf("find: %+v %v", found, err)
	}
	_, err = f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "pre-snap", AppID: f.appID, HookSourceID: src.ID, Action: "snapshot", Stage: "pre"})
	if !IsConflict(err) || ProblemNumber(err) != 10 {
		t.Errorf("a duplicate name: %v", err)
	}
	if err := f.c.DeleteExecutionHook(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.GetExecutionHook(ctx, created.ID); !IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
}

// A failover hook needs executionHook 1.3 (release 23.07, cluster version 1.5): refused by
// the client at 1.4, before any request.
func TestFailoverHooksNeedVersion13(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{Release: "23.05"})
	ctx := context.Background()
	_, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "fo", AppID: f.appID, HookSourceID: "5c2a1d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
		Action: HookActionFailover, Stage: HookStagePost})
	if err == nil || !strings.Contains(err.Error(), "execution hook version 1.2 has no failover action") || len(f.sim.Counts()) != 0 {
		t.Errorf("failover at 1.2: %v (%v)", err, f.sim.Counts())
	}
	if _, err := f.c.UpdateExecutionHook(ctx, &ExecutionHook{ID: "5c2a1d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", Action: HookActionFailover}); err == nil {
		t.Error("a failover update at 1.2 was sent")
	}
	if _, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "x"}); err == nil {
		t.Error("a hook without an app was sent")
	}
}

func TestHookLostAnswersAreFoundByName(t *testing.T) {
	f := newDayTwoFixture(t, astrasim.Options{})
	ctx := context.Background()
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: "/core/v1/hookSources", Kind: astrasim.FaultLostAnswer, Times: 1})
	f.sim.AddFault(astrasim.Fault{Method: http.MethodPost, Route: "/k8s/v1/apps/{app_id}/executionHooks", Kind: astrasim.FaultLostAnswer, Times: 1})
	if _, err := f.c.CreateHookSource(ctx, HookSourceCreate{Name: "lost", Script: script}); !IsUnknownOutcome(err) {
		t.Fatalf("hook source: %v", err)
	}
	src, err := f.c.FindHookSource(ctx, "lost")
	if err != nil || src == nil {
		t.Fatalf("find the hook source: %+v %v", src, err)
	}
	if _, err := f.c.CreateExecutionHook(ctx, ExecutionHookCreate{Name: "lost", AppID: f.appID, HookSourceID: src.ID, Action: "backup", Stage: "post"}); !IsUnknownOutcome(err) {
		t.Fatalf("hook: %v", err)
	}
	hook, err := f.c.FindExecutionHook(ctx, f.appID, "lost")
	if err != nil || hook == nil || hook.Action != "backup" {
		t.Fatalf("find the hook: %+v %v", hook, err)
	}
	if a, b := f.sim.Count("POST", "/core/v1/hookSources"), f.sim.Count("POST", "/k8s/v1/apps/{app_id}/executionHooks"); a != 1 || b != 1 {
		t.Errorf("POSTs: %d and %d, want 1 each", a, b)
	}
}
