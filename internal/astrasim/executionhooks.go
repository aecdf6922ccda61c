package astrasim

import (
	"fmt"
	"net/http"
	"regexp"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// execHook is an app's execution hook (application/astra-executionHook): a hook source run
// before or after an app's snapshots, backups or restores, on the containers its
// matchingCriteria match. It is served on two paths, /core/v1/executionHooks (every hook)
// and /k8s/v1/apps/{app_id}/executionHooks (the app's hooks), one object behind both.
type execHook struct {
	Seq          int         `json:"seq"`
	ID           string      `json:"id"`
	Version      string      `json:"version"`
	Name         string      `json:"name"`
	HookType     string      `json:"hookType"`
	AppID        string      `json:"appID"`
	HookSourceID string      `json:"hookSourceID"`
	Action       string      `json:"action"`
	Stage        string      `json:"stage"`
	Arguments    []string    `json:"arguments"`
	Criteria     []criterion `json:"matchingCriteria"`
	Enabled      string      `json:"enabled"`
	Description  string      `json:"description,omitempty"`
	Meta         meta        `json:"metadata"`
}

// maxArguments: "Maximum items: 16" in the schema's prose (the schema itself has no maxItems).
const maxArguments = 16

func (st *state) hooksOf(appID string) []*execHook {
	var out []*execHook
	for _, h := range st.Hooks {
		if appID == "" || h.AppID == appID {
			out = append(out, h)
		}
	}
	sortBySeq(out, func(h *execHook) int { return h.Seq })
	return out
}

func (s *Sim) hookPath(h *execHook) string {
	return s.accountPath() + "/core/v1/executionHooks/" + h.ID
}

func (s *Sim) renderHook(h *execHook) map[string]any {
	criteria := make([]any, 0, len(h.Criteria))
	for _, c := range h.Criteria {
		criteria = append(criteria, map[string]any{"type": c.Type, "value": c.Value})
	}
	containers, images := []any{}, []string{}
	if a := s.st.Apps[h.AppID]; a != nil {
		for _, c := range matchingContainers(appContainers(a), h.Criteria) {
			labels := make([]any, 0, len(c.Labels))
			for _, l := range c.Labels {
				labels = append(labels, map[string]any{"name": l.Name, "value": l.Value})
			}
			containers = append(containers, map[string]any{"podName": c.Pod, "podLabels": labels, "containerImage": c.Image,
				"containerName": c.Name, "namespaceName": c.Namespace})
			if !containsString(images, c.Image) {
				images = append(images, c.Image)
			}
		}
	}
	m := map[string]any{
		"type": "application/astra-executionHook", "version": h.Version, "id": h.ID, "name": h.Name, "hookType": h.HookType,
		"matchingCriteria": criteria, "matchingContainers": containers, "matchingImages": strs(images), "action": h.Action,
		"stage": h.Stage, "hookSourceID": h.HookSourceID, "arguments": strs(h.Arguments), "appID": h.AppID,
		"enabled": h.Enabled, "metadata": renderMeta(h.Meta),
	}
	putIf(m, "description", h.Description)
	return fitToSchema(s.responseSchema(apispec.ExecutionHook, h.Version), m)
}

// listHooks answers both collections: every hook, or (app-scoped) the app's.
func (s *Sim) listHooks(q *request) *reply {
	appID := q.params["app_id"]
	if appID != "" && s.st.Apps[appID] == nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, h := range s.st.hooksOf(appID) {
		items = append(items, s.renderHook(h))
	}
	return s.list(q, apispec.ExecutionHook, items)
}

// lookupHook finds a hook; on the app-scoped path it must be that app's.
func (s *Sim) lookupHook(q *request) (*execHook, *apiProblem) {
	h := s.st.Hooks[q.params["executionHook_id"]]
	if h == nil || (q.params["app_id"] != "" && h.AppID != q.params["app_id"]) {
		return nil, notFound(q)
	}
	return h, nil
}

func (s *Sim) getHook(q *request) *reply {
	h, p := s.lookupHook(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.ExecutionHook, apispec.GetResponse, h.Version, s.renderHook(h))
}

// postHook adds a custom hook. "netapp" hooks are NetApp's own and read only: 403 problem
// 73. On the app-scoped path the body's appID must be the path's app.
func (s *Sim) postHook(q *request) *reply {
	pathApp := q.params["app_id"]
	if pathApp != "" && s.st.Apps[pathApp] == nil {
		return fail(problem(2))
	}
	b, p := s.readBody(q, apispec.ExecutionHook, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if t, _ := b.str("hookType"); t == "netapp" {
		return fail(problem(73))
	}
	appID, _ := b.str("appID")
	switch {
	case pathApp != "" && appID != pathApp:
		return fail(invalidFields(9, fieldReason{"appID", "the appID differs from the app in the request URI"}))
	case s.st.Apps[appID] == nil:
		return fail(invalidFields(9, fieldReason{"appID", "no app has this ID"}))
	}
	h := &execHook{Seq: s.st.nextSeq(), Version: b.version, HookType: "custom", AppID: appID, Enabled: "true",
		Arguments: []string{}, Criteria: []criterion{}, Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	h.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(h.Seq))
	if p := s.applyHookBody(h, b); p != nil {
		return fail(p)
	}
	if labels, ok := labelsOf(b); ok {
		h.Meta.Labels = mergeLabels(nil, labels)
	}
	s.st.Hooks[h.ID] = h
	return created(q, s.hookPath(h), apispec.ExecutionHook, h.Version, hookPostAnswer(s.renderHook(h)))
}

// putHook replaces a hook with the body (replaceOnPut says how): what a hook cannot do
// without (its name, hook source, action and stage) is kept when left out; arguments,
// matchingCriteria, description and labels left out go, and enabled left out is "true", its
// default. Which members a PUT may change is not documented; the simulator's assumption:
// all but the app and the hook type (a hook moves to another app by being created there),
// which are 409 problem 10 when sent different.
func (s *Sim) putHook(q *request) *reply {
	h, p := s.lookupHook(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderHook(h)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.ExecutionHook, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	for _, f := range []struct{ name, have string }{{"id", h.ID}, {"appID", h.AppID}, {"hookType", h.HookType}} {
		if v, ok := b.str(f.name); ok && v != f.have {
			return fail(invalidFields(10, fieldReason{f.name, "an execution hook's " + f.name + " can't change"}))
		}
	}
	next := execHook{Seq: h.Seq, ID: h.ID, Version: b.version, Name: h.Name, HookType: h.HookType, AppID: h.AppID,
		HookSourceID: h.HookSourceID, Action: h.Action, Stage: h.Stage, Arguments: []string{}, Criteria: []criterion{},
		Enabled: "true", Meta: h.Meta}
	if p := s.applyHookBody(&next, b); p != nil {
		return fail(p)
	}
	labels, _ := labelsOf(b)
	next.Meta.Labels = mergeLabels(next.Meta.Labels, labels)
	touch(&next.Meta, q)
	*h = next
	return s.updated(q, apispec.ExecutionHook, h.Version, s.renderHook(h))
}

func (s *Sim) deleteHook(q *request) *reply {
	h, p := s.lookupHook(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderHook(h)); p != nil {
		return fail(p)
	}
	delete(s.st.Hooks, h.ID)
	return noContent()
}

// applyHookBody writes a POST or PUT body's members into h and checks the result against
// the rules the schema states in prose: restore and failover hooks run post only; at most
// 16 arguments; each criterion a type and a valid RE2 regular expression; a hook source of
// the account; a name no other hook of the app has (409 problem 10); failover only at a
// version whose action enum has it (1.3, releases 23.07 and later; a 1.2 body cannot even
// name it). The schema's prose says "Name must be unique across all execution hook
// resources", yet NetApp's captured answers show two apps with hooks of the same names:
// actoolkit's "copy hooks" (docs/toolkit/copy) creates the source app's hooks, names
// unchanged, on another app, and the service answers 201 with new IDs. The capture wins: a
// name is unique among the app's hooks (the collection the client posts to).
func (s *Sim) applyHookBody(h *execHook, b *body) *apiProblem {
	for _, f := range []struct {
		name string
		dst  *string
	}{{"name", &h.Name}, {"hookSourceID", &h.HookSourceID}, {"action", &h.Action}, {"stage", &h.Stage},
		{"enabled", &h.Enabled}, {"description", &h.Description}} {
		if v, ok := b.str(f.name); ok {
			*f.dst = v
		}
	}
	if args, ok := b.strings("arguments"); ok {
		h.Arguments = args
	}
	if raw, ok := b.fields["matchingCriteria"].([]any); ok {
		criteria, p := readCriteria(raw)
		if p != nil {
			return p
		}
		h.Criteria = criteria
	}
	switch {
	case (h.Action == "restore" || h.Action == "failover") && h.Stage != "post":
		return invalidFields(9, fieldReason{"stage", "a " + h.Action + " hook runs post only"})
	case !enumHas(s.responseSchema(apispec.ExecutionHook, h.Version).Properties["action"], h.Action):
		return invalidFields(9, fieldReason{"action", "executionHook " + h.Version + " has no action " + h.Action + " (failover needs 1.3)"})
	case len(h.Arguments) > maxArguments:
		return invalidFields(9, fieldReason{"arguments", fmt.Sprintf("at most %d arguments", maxArguments)})
	case s.st.HookSources[h.HookSourceID] == nil:
		return invalidFields(9, fieldReason{"hookSourceID", "no hook source has this ID"})
	}
	for _, other := range s.st.Hooks {
		if other.ID != h.ID && other.AppID == h.AppID && other.Name == h.Name {
			return invalidFields(10, fieldReason{"name", "the app already has an execution hook named " + h.Name})
		}
	}
	return nil
}

// readCriteria reads matchingCriteria: each needs a type and a value that compiles as an
// RE2 regular expression (the schema's syntax, Go's own), else problem 9 naming it.
func readCriteria(raw []any) ([]criterion, *apiProblem) {
	out := make([]criterion, 0, len(raw))
	for i, item := range raw {
		m, _ := item.(map[string]any)
		c := criterion{}
		c.Type, _ = m["type"].(string)
		c.Value, _ = m["value"].(string)
		field := fmt.Sprintf("matchingCriteria[%d]", i)
		if c.Type == "" {
			return nil, invalidFields(9, fieldReason{field + ".type", "a matching criterion needs a type"})
		}
		if _, err := regexp.Compile(c.Value); err != nil || c.Value == "" {
			reason := "a matching criterion needs a regular expression"
			if err != nil {
				reason = "not a valid RE2 regular expression: " + err.Error()
			}
			return nil, invalidFields(9, fieldReason{field + ".value", reason})
		}
		out = append(out, c)
	}
	return out, nil
}
