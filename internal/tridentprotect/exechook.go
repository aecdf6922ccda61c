package tridentprotect

import (
	"encoding/base64"
	"strings"
)

var hookActions = map[string]string{"snapshot": "Snapshot", "backup": "Backup", "restore": "Restore", "failover": "Failover"}

var hookStages = map[string]string{"pre": "Pre", "post": "Post"}

// Criterion types are spelled as in Astra and in the YAML example of Trident protect's
// ExecHook page; the page's list of values capitalizes them (ContainerImage, ...), its
// example and the controller's users do not. See mapping.md.
var criterionTypes = map[string]string{
	"containerimage": "containerImage",
	"containername":  "containerName",
	"podname":        "podName",
	"podlabel":       "podLabel",
	"namespacename":  "namespaceName",
}

// maxMatchingCriteria is Trident protect's limit of filters per hook (Astra's too).
const maxMatchingCriteria = 10

// maxScriptBytes is the script size Trident protect's docs allow, "96KB", read as the
// smaller 96,000 bytes so that a warning errs on the side of telling.
const maxScriptBytes = 96000

// The ExecHook CRD's limits (chart 100.2605.0): spec.hookSource maxLength, in base64
// characters (98,304 bytes of script), and spec.arguments maxItems. Above them the API
// server refuses the ExecHook, so the rendering is refused, naming the hook.
const (
	maxHookSourceChars = 131072
	maxHookArguments   = 127
)

// renderExecHook returns an ExecHook's spec, or ok false (with the reason in warns).
func renderExecHook(h Hook, appName string, warns *warnings, probs *problems) (map[string]any, bool) {
	src := hookSource(h)
	if t := strings.ToLower(strings.TrimSpace(h.HookType)); t != "" && t != "custom" {
		warns.add(src, "is a NetApp-provided hook (hookType %s), which Trident protect does not have; no ExecHook is rendered", quote(h.HookType))
		return nil, false
	}
	action, okAction := hookActions[strings.ToLower(strings.TrimSpace(h.Action))]
	stage, okStage := hookStages[strings.ToLower(strings.TrimSpace(h.Stage))]
	if !okAction || !okStage {
		warns.add(src, "action %s and stage %s are not a Trident protect hook type; no ExecHook is rendered", quote(h.Action), quote(h.Stage))
		return nil, false
	}
	if stage == "Pre" && (action == "Restore" || action == "Failover") {
		warns.add(src, "Trident protect runs restore and failover hooks only after the operation (Post); no ExecHook is rendered for a %s-%s hook",
			strings.ToLower(stage), strings.ToLower(action))
		return nil, false
	}
	if h.Source.Private {
		warns.add(src, "its hook source %s is private: Astra Control does not return the script, so no ExecHook is rendered; create it from your copy of the script", quote(h.Source.Name))
		return nil, false
	}
	if strings.TrimSpace(h.Source.Script) == "" {
		warns.add(src, "its hook source %s has no script; no ExecHook is rendered", quote(h.Source.Name))
		return nil, false
	}
	criteria, ok := matchingCriteria(h, src, warns)
	if !ok {
		return nil, false
	}
	hookSource := base64.StdEncoding.EncodeToString([]byte(h.Source.Script))
	if len(hookSource) > maxHookSourceChars {
		probs.add(src, "", "", "its hook source %s is %d bytes, %d base64 characters in spec.hookSource, more than the %d Trident protect's ExecHook CRD accepts "+
			"(a script of at most %d bytes): shorten the script, for example by having it read the rest from the container",
			quote(h.Source.Name), len(h.Source.Script), len(hookSource), maxHookSourceChars, maxHookSourceChars/4*3)
		return nil, false
	}
	if len(h.Arguments) > maxHookArguments {
		probs.add(src, "", "", "has %d arguments, more than the %d Trident protect's ExecHook CRD accepts in spec.arguments: pass fewer (for example in one argument the script splits)",
			len(h.Arguments), maxHookArguments)
		return nil, false
	}
	spec := map[string]any{
		"applicationRef": appName,
		"stage":          stage,
		"action":         action,
		"enabled":        !h.Disabled,
		"hookSource":     hookSource,
	}
	if len(h.Arguments) > 0 {
		args := make([]any, len(h.Arguments))
		for i, a := range h.Arguments {
			args[i] = a
		}
		spec["arguments"] = args
	}
	if len(criteria) > 0 {
		spec["matchingCriteria"] = criteria
	}
	if len(h.Source.Script) > maxScriptBytes {
		warns.add(src, "its script is %d bytes, more than the 96 KB Trident protect's documentation allows", len(h.Source.Script))
	}
	if action == "Failover" {
		warns.add(src, "a failover hook runs when an AppMirrorRelationship fails over; this rendering creates none (Astra Control replication is not mapped)")
	}
	return spec, true
}

// matchingCriteria maps a hook's filters. One it cannot map refuses the hook: leaving a
// filter out would widen where the script runs.
func matchingCriteria(h Hook, src Source, warns *warnings) ([]any, bool) {
	if len(h.MatchingCriteria) > maxMatchingCriteria {
		warns.add(src, "has %d matching criteria, more than the %d Trident protect allows; no ExecHook is rendered", len(h.MatchingCriteria), maxMatchingCriteria)
		return nil, false
	}
	out := make([]any, 0, len(h.MatchingCriteria))
	for _, c := range h.MatchingCriteria {
		t, ok := criterionTypes[strings.ToLower(strings.TrimSpace(c.Type))]
		if !ok {
			warns.add(src, "matching criterion type %s is not one Trident protect has; leaving it out would widen where the script runs, so no ExecHook is rendered", quote(c.Type))
			return nil, false
		}
		out = append(out, map[string]any{"type": t, "value": c.Value})
	}
	return out, true
}

func hookSource(h Hook) Source {
	return Source{Kind: sourceHook, ID: h.ID, Name: h.Name}
}
