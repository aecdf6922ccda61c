package astrasim

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strconv"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// schedule is an app's protection policy: when it is snapshotted and backed up. Numbers
// are kept as the strings the API speaks; a field the granularity does not use is "".
type schedule struct {
	Seq               int    `json:"seq"`
	ID                string `json:"id"`
	AppID             string `json:"appID"`
	Version           string `json:"version"`
	Name              string `json:"name"`
	Enabled           string `json:"enabled"`
	Granularity       string `json:"granularity"`
	Minute            string `json:"minute,omitempty"`
	Hour              string `json:"hour,omitempty"`
	DayOfWeek         string `json:"dayOfWeek,omitempty"`
	DayOfMonth        string `json:"dayOfMonth,omitempty"`
	RecurrenceRule    string `json:"recurrenceRule,omitempty"`
	SnapshotRetention string `json:"snapshotRetention"`
	BackupRetention   string `json:"backupRetention"`
	BucketID          string `json:"bucketID,omitempty"`
	Replicate         string `json:"replicate,omitempty"` // "true": each firing replicates (replication.go); "" is "false"
	Meta              meta   `json:"metadata"`
}

func sortBySeq[T any](list []T, seq func(T) int) {
	sort.Slice(list, func(i, j int) bool { return seq(list[i]) < seq(list[j]) })
}

// scheduleField is a time field of a schedule with its API name and range.
type scheduleField struct {
	name     string
	min, max int
	get      func(*schedule) *string
}

var scheduleFields = []scheduleField{
	{"minute", 0, 59, func(sc *schedule) *string { return &sc.Minute }},
	{"hour", 0, 23, func(sc *schedule) *string { return &sc.Hour }},
	{"dayOfWeek", 0, 7, func(sc *schedule) *string { return &sc.DayOfWeek }},
	{"dayOfMonth", 1, 31, func(sc *schedule) *string { return &sc.DayOfMonth }},
}

// granularityFields are the time fields each granularity uses (actoolkit's rules).
var granularityFields = map[string][]string{
	"hourly":  {"minute"},
	"daily":   {"minute", "hour"},
	"weekly":  {"minute", "hour", "dayOfWeek"},
	"monthly": {"minute", "hour", "dayOfMonth"},
	"custom":  {},
}

var (
	smallNumber = regexp.MustCompile(`^[0-9]{1,2}$`)
	// recurrenceRule of a custom schedule: RFC 5545 limited to MINUTELY or HOURLY and INTERVAL
	// (the RRULE: prefix optional: a bare RECUR value, FREQ=MINUTELY;INTERVAL=N, is one too).
	recurrencePattern = regexp.MustCompile(`^(DTSTART:[0-9]{8}T[0-9]{6}Z\s+)?(RRULE:)?FREQ=(MINUTELY|HOURLY);INTERVAL=[1-9][0-9]*$`)
)

// applyScheduleBody writes a POST or PUT body's fields into sc and checks the result per
// granularity. The published patterns of the time fields are unanchored alternations that
// accept "75"; the real ranges are checked here. A field the granularity does not use may
// be absent, "*" (what actoolkit sends) or null (what its copy command sends); it is
// stored, and answered, as absent.
func applyScheduleBody(sc *schedule, b *body) *apiProblem {
	for _, f := range []struct {
		name string
		dst  *string
	}{{"name", &sc.Name}, {"enabled", &sc.Enabled}, {"granularity", &sc.Granularity}, {"recurrenceRule", &sc.RecurrenceRule},
		{"snapshotRetention", &sc.SnapshotRetention}, {"backupRetention", &sc.BackupRetention}, {"bucketID", &sc.BucketID},
		{"replicate", &sc.Replicate}} {
		if v, ok := b.str(f.name); ok {
			*f.dst = v
		}
	}
	used := granularityFields[sc.Granularity]
	for _, f := range scheduleFields {
		v, sent := b.str(f.name)
		isUsed := containsString(used, f.name)
		switch {
		// actoolkit's replicating (custom) schedule sends minute and hour "0" (research notes §4.15).
		case !isUsed && sent && v != "*" && (sc.Granularity != "custom" || v != "0"):
			return invalidFields(9, fieldReason{f.name, fmt.Sprintf("a %s schedule doesn't use %s; leave it out or send \"*\"", sc.Granularity, f.name)})
		case !isUsed:
			*f.get(sc) = ""
		case sent:
			n, err := strconv.Atoi(v)
			if !smallNumber.MatchString(v) || err != nil || n < f.min || n > f.max {
				return invalidFields(9, fieldReason{f.name, fmt.Sprintf("%s must be a number from %d to %d", f.name, f.min, f.max)})
			}
			*f.get(sc) = v
		}
	}
	if sc.Minute == "" && sc.Granularity != "custom" {
		sc.Minute = "0"
	}
	for _, name := range used {
		for _, f := range scheduleFields {
			if f.name == name && *f.get(sc) == "" {
				return invalidFields(9, fieldReason{name, fmt.Sprintf("a %s schedule needs %s", sc.Granularity, name)})
			}
		}
	}
	if sc.Granularity == "custom" {
		if !recurrencePattern.MatchString(sc.RecurrenceRule) {
			return invalidFields(9, fieldReason{"recurrenceRule", "a custom schedule needs an RFC 5545 rule with FREQ=MINUTELY or HOURLY and INTERVAL"})
		}
	} else {
		if rule, _ := b.str("recurrenceRule"); rule != "" {
			return invalidFields(9, fieldReason{"recurrenceRule", "only a custom schedule has a recurrenceRule"})
		}
		sc.RecurrenceRule = ""
	}
	if sc.Enabled == "" {
		sc.Enabled = "true"
	}
	return nil
}

func (s *Sim) schedulePath(sc *schedule) string {
	return s.accountPath() + "/k8s/v1/apps/" + sc.AppID + "/schedules/" + sc.ID
}

func (s *Sim) renderSchedule(sc *schedule) map[string]any {
	m := map[string]any{
		"type": "application/astra-schedule", "version": sc.Version, "id": sc.ID, "name": sc.Name,
		"enabled": sc.Enabled, "granularity": sc.Granularity, "minute": sc.Minute,
		"snapshotRetention": sc.SnapshotRetention, "backupRetention": sc.BackupRetention,
		"metadata": renderMeta(sc.Meta),
	}
	if sc.Minute == "" {
		m["minute"] = "0"
	}
	putIf(m, "hour", sc.Hour)
	putIf(m, "dayOfWeek", sc.DayOfWeek)
	putIf(m, "dayOfMonth", sc.DayOfMonth)
	putIf(m, "recurrenceRule", sc.RecurrenceRule)
	putIf(m, "bucketID", sc.BucketID)
	putIf(m, "replicate", sc.Replicate)
	return fitToSchema(s.responseSchema(apispec.Schedule, sc.Version), m)
}

func (s *Sim) listSchedules(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(problem(2))
	}
	var items []map[string]any
	for _, sc := range s.st.schedulesOf(a.ID) {
		items = append(items, s.renderSchedule(sc))
	}
	return s.list(q, apispec.Schedule, items)
}

func (s *Sim) lookupSchedule(q *request) (*schedule, *apiProblem) {
	sc := s.st.Schedules[q.params["schedule_id"]]
	if sc == nil || sc.AppID != q.params["app_id"] {
		return nil, notFound(q)
	}
	return sc, nil
}

func (s *Sim) getSchedule(q *request) *reply {
	sc, p := s.lookupSchedule(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.Schedule, apispec.GetResponse, sc.Version, s.renderSchedule(sc))
}

// checkScheduleRules applies the rules beyond one field: the bucket exists, and an app
// has at most one schedule per granularity (the simulator's assumption, as the web UI
// offers one hourly, daily, weekly and monthly policy per app).
func (s *Sim) checkScheduleRules(sc *schedule) *apiProblem {
	if sc.BucketID != "" && !s.st.bucketExists(sc.BucketID) {
		return invalidFields(9, fieldReason{"bucketID", "no bucket has this ID"})
	}
	for _, other := range s.st.schedulesOf(sc.AppID) {
		if other.ID != sc.ID && other.Granularity == sc.Granularity && sc.Granularity != "custom" {
			return invalidFields(132, fieldReason{"granularity", "the app already has a " + sc.Granularity + " schedule (" + other.Name + ")"})
		}
	}
	return nil
}

// postSchedule adds a protection policy to a ready app. A replicating schedule is problem
// 153 (no AppMirror relationship is modelled); an app that is not ready, problem 154.
func (s *Sim) postSchedule(q *request) *reply {
	a, p := s.lookupApp(q)
	if p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.Schedule, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	if p := s.checkReplicate(a, b); p != nil {
		return fail(p)
	}
	if a.State != "ready" {
		return fail(problem(154))
	}
	// A schedule POSTed at 1.2 is answered at 1.3 (NetApp's toolkit docs): the release's newest.
	sc := &schedule{Seq: s.st.nextSeq(), AppID: a.ID, Version: s.newest[apispec.Schedule],
		Meta: meta{Labels: []label{}, Created: q.now, Modified: q.now, CreatedBy: q.user.userID}}
	sc.ID = derivedUUID4(s.opts.Seed, "object/"+itoa(sc.Seq))
	if p := applyScheduleBody(sc, b); p != nil {
		return fail(p)
	}
	if p := s.checkScheduleRules(sc); p != nil {
		return fail(p)
	}
	if labels, ok := labelsOf(b); ok {
		sc.Meta.Labels = mergeLabels(nil, labels)
	}
	s.st.Schedules[sc.ID] = sc
	return created(q, s.schedulePath(sc), apispec.Schedule, sc.Version, s.renderSchedule(sc))
}

// putSchedule replaces a schedule with the body (replaceOnPut says how): a bucketID left
// out lets the service choose the bucket again, labels left out go, enabled left out is
// "true" as on a POST. The simulator's assumption, as for a POST: the answer names the
// release's newest schedule version whatever version the body named.
func (s *Sim) putSchedule(q *request) *reply {
	sc, p := s.lookupSchedule(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderSchedule(sc)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.Schedule, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if p := s.checkReplicate(s.st.Apps[sc.AppID], b); p != nil {
		return fail(p)
	}
	next := schedule{Seq: sc.Seq, ID: sc.ID, AppID: sc.AppID, Version: s.newest[apispec.Schedule], Meta: sc.Meta,
		Name: sc.Name, Granularity: sc.Granularity} // what a schedule cannot do without is kept when left out
	if p := applyScheduleBody(&next, b); p != nil {
		return fail(p)
	}
	if p := s.checkScheduleRules(&next); p != nil {
		return fail(p)
	}
	labels, _ := labelsOf(b)
	next.Meta.Labels = mergeLabels(next.Meta.Labels, labels)
	touch(&next.Meta, q)
	*sc = next
	return s.updated(q, apispec.Schedule, sc.Version, s.renderSchedule(sc))
}

func (s *Sim) deleteSchedule(q *request) *reply {
	sc, p := s.lookupSchedule(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderSchedule(sc)); p != nil {
		return fail(p)
	}
	delete(s.st.Schedules, sc.ID)
	return noContent()
}
