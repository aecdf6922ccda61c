package astrasim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// The LDAP configuration is the setting astra.account.ldap (setting_1.0/1.1; research
// notes §4.14 "LDAP configuration"; AA-DOCS ldap_prepare.adoc, wf_ldap_configure_server,
// wf_ldap_disable_reset; NetApp's toolkit astraSDK/settings.py). It always exists on
// Astra Control Center and cannot be created or deleted. A PUT of desiredConfig answers
// 204 and leaves the setting pending; once applied (Delays.LDAP later) it is valid, with
// currentConfig equal to desiredConfig, or error with stateUnready saying why and
// currentConfig as it was.

const ldapSettingName = "astra.account.ldap"

type ldapSetting struct {
	Name      string         `json:"name"` // astra.account.ldap or astra.account.smtp (smtp.go)
	ID        string         `json:"id"`
	Version   string         `json:"version"`
	Current   map[string]any `json:"currentConfig"`
	Desired   map[string]any `json:"desiredConfig,omitempty"`
	State     string         `json:"state"`
	Unready   []string       `json:"stateUnready"`
	ApplyAt   *time.Time     `json:"applyAt,omitempty"` // pending until then
	Meta      meta           `json:"metadata"`
	Attempted bool           `json:"attempted,omitempty"` // a desiredConfig was ever applied
}

// ldapDefaults are the shipped defaults, as NetApp's toolkit writes them back on destroy.
func ldapDefaults() map[string]any {
	return map[string]any{
		"connectionHost": "", "credentialId": "", "groupBaseDN": DirectoryGroupBase, "groupSearchCustomFilter": "",
		"isEnabled": "false", "loginAttribute": "mail", "port": 636, "secureMode": "LDAPS",
		"userBaseDN": DirectoryUserBase, "userSearchFilter": "(objectClass=Person)", "vendor": "Active Directory",
	}
}

// ldapConfigSchema is the configSchema the setting answers (research notes §4.14): the
// required members, port an integer, additionalProperties false.
func ldapConfigSchema() map[string]any {
	str := func() map[string]any { return map[string]any{"type": "string"} }
	enum := func(vs ...string) map[string]any { return map[string]any{"type": "string", "enum": strs(vs)} }
	return map[string]any{
		"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "additionalProperties": false,
		"required": strs([]string{"connectionHost", "secureMode", "credentialId", "userBaseDN", "userSearchFilter", "groupBaseDN", "vendor", "isEnabled"}),
		"properties": map[string]any{
			"connectionHost": str(), "port": map[string]any{"type": "integer", "minimum": 1, "maximum": 65535},
			"secureMode": enum("LDAP", "LDAPS"), "credentialId": str(), "userBaseDN": str(), "userSearchFilter": str(),
			"loginAttribute": enum("mail", "userPrincipalName"), "groupBaseDN": str(), "groupSearchCustomFilter": str(),
			"vendor": enum("Active Directory"), "isEnabled": enum("true", "false"),
		},
	}
}

func (s *Sim) defaultLDAP() *ldapSetting {
	return &ldapSetting{Name: ldapSettingName, ID: s.seedID("setting/ldap"), Version: s.newest[resSetting], Current: ldapDefaults(), State: "valid",
		Unready: []string{}, Meta: meta{Labels: []label{}, Created: seedTime, Modified: seedTime, CreatedBy: nullUUID}}
}

func (s *Sim) renderSetting(l *ldapSetting) map[string]any {
	m := map[string]any{
		"type": "application/astra-setting", "version": l.Version, "id": l.ID, "name": l.Name,
		"currentConfig": l.Current, "configSchema": configSchemaOf(l.Name), "state": l.State, "stateUnready": strs(l.Unready),
		"metadata": renderMeta(l.Meta),
	}
	if l.Desired != nil {
		m["desiredConfig"] = l.Desired
	}
	return m
}

// listSettings answers the account's settings: SMTP (the documents' example), and LDAP on
// Astra Control Center (Astra Control Service has no LDAP).
func (s *Sim) listSettings(q *request) *reply {
	s.settleLDAP(q.now)
	var items []map[string]any
	for _, l := range s.st.Identity.settings() {
		items = append(items, s.renderSetting(l))
	}
	return s.list(q, resSetting, items)
}

func (id *identity) settings() []*ldapSetting {
	var out []*ldapSetting
	for _, l := range []*ldapSetting{id.SMTP, id.LDAP} {
		if l != nil {
			out = append(out, l)
		}
	}
	return out
}

func (s *Sim) lookupSetting(q *request) (*ldapSetting, *apiProblem) {
	s.settleLDAP(q.now)
	for _, l := range s.st.Identity.settings() {
		if l.ID == q.params["setting_id"] {
			return l, nil
		}
	}
	return nil, problem(2) // the setting operations list 404 problem 2 only
}

func (s *Sim) getSetting(q *request) *reply {
	l, p := s.lookupSetting(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, resSetting, apispec.GetResponse, l.Version, s.renderSetting(l))
}

// trailingDotVersion takes NetApp's toolkit's settings version "1.1." (research notes
// §4.15: outside the enum, and the service takes it) as "1.1".
func trailingDotVersion(q *request) {
	raw, err := io.ReadAll(io.LimitReader(q.r.Body, maxBody+1))
	q.r.Body = io.NopCloser(bytes.NewReader(raw))
	if err != nil {
		return
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	if v, ok := m["version"].(string); ok && len(v) > 1 && v[len(v)-1] == '.' {
		m["version"] = v[:len(v)-1]
		fixed, _ := json.Marshal(m)
		q.r.Body = io.NopCloser(bytes.NewReader(fixed))
	}
}

// putSetting takes a desiredConfig: checked against the configSchema (problem 9), and a
// new server address only after a reset (AA-DOCS: connectionHost is not editable until
// LDAP is disabled and reset; 409 problem 10).
func (s *Sim) putSetting(q *request) *reply {
	l, p := s.lookupSetting(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderSetting(l)); p != nil {
		return fail(p)
	}
	trailingDotVersion(q)
	b, p := s.readBody(q, resSetting, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if name, ok := b.str("name"); ok && name != l.Name {
		return fail(invalidFields(10, fieldReason{"name", "the setting's name is " + l.Name}))
	}
	desired, ok := b.fields["desiredConfig"].(map[string]any)
	if !ok {
		return fail(invalidFields(9, fieldReason{"desiredConfig", "a setting is changed through desiredConfig"}))
	}
	if bad := checkConfig(configSchemaOf(l.Name), desired); len(bad) > 0 {
		return fail(invalidFields(9, bad...))
	}
	if l.Name == smtpSettingName {
		return s.putSMTP(q, l, b, desired)
	}
	from := l.Current
	if l.Desired != nil && l.State == "pending" {
		from = l.Desired
	}
	oldHost, _ := from["connectionHost"].(string)
	newHost, _ := desired["connectionHost"].(string)
	if oldHost != "" && newHost != "" && newHost != oldHost {
		return fail(invalidFields(10, fieldReason{"desiredConfig.connectionHost",
			"the LDAP server address changes only after LDAP is disabled and reset (a PUT with isEnabled \"false\" and connectionHost \"\")"}))
	}
	if _, ok := desired["port"]; !ok {
		desired["port"] = 636
		if desired["secureMode"] == "LDAP" {
			desired["port"] = 389
		}
	}
	if _, ok := desired["loginAttribute"]; !ok {
		desired["loginAttribute"] = "mail"
	}
	if _, ok := desired["groupSearchCustomFilter"]; !ok {
		desired["groupSearchCustomFilter"] = ""
	}
	at := q.now.Add(s.opts.Delays.LDAP)
	l.Desired, l.State, l.Unready, l.ApplyAt, l.Version = desired, "pending", []string{}, &at, b.version
	touch(&l.Meta, q)
	s.settleLDAP(q.now)
	return s.updated(q, resSetting, l.Version, s.renderSetting(l))
}

// checkConfig applies a configSchema: required members, types, enums, nothing else.
func checkConfig(sc, cfg map[string]any) []fieldReason {
	props, _ := sc["properties"].(map[string]any)
	var bad []fieldReason
	required, _ := sc["required"].([]any)
	for _, r := range required {
		name := toString(r)
		if _, ok := cfg[name]; !ok {
			bad = append(bad, fieldReason{"desiredConfig." + name, "required"})
		}
	}
	for k, v := range cfg {
		prop, known := props[k].(map[string]any)
		if !known {
			bad = append(bad, fieldReason{"desiredConfig." + k, "not a member of the configuration (configSchema: additionalProperties false)"})
			continue
		}
		if prop["type"] == "integer" {
			if n, ok := v.(float64); !ok || n != float64(int(n)) || n < 1 || n > 65535 {
				bad = append(bad, fieldReason{"desiredConfig." + k, "must be an integer port number (1-65535)"})
			}
			continue
		}
		sv, ok := v.(string)
		if !ok {
			bad = append(bad, fieldReason{"desiredConfig." + k, "must be a string"})
			continue
		}
		if enum, ok := prop["enum"].([]any); ok && !contains(enum, sv) {
			bad = append(bad, fieldReason{"desiredConfig." + k, "must be one of " + joinAny(enum)})
		}
	}
	sortFields(bad)
	return bad
}

func joinAny(vs []any) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += ", "
		}
		out += strconv.Quote(toString(v))
	}
	return out
}

// settleLDAP applies a pending desiredConfig whose time has come.
func (s *Sim) settleLDAP(now time.Time) {
	l := s.st.Identity.LDAP
	if l == nil || l.State != "pending" || l.ApplyAt == nil || l.ApplyAt.After(now) {
		return
	}
	l.ApplyAt, l.Attempted = nil, true
	if reasons := s.ldapProblems(l.Desired); len(reasons) > 0 {
		for i, r := range reasons {
			if len(r) > 127 { // type_unready's limit
				reasons[i] = r[:124] + "..."
			}
		}
		l.State, l.Unready = "error", reasons
		return
	}
	l.Current = copyMap(l.Desired)
	l.State, l.Unready = "valid", []string{}
	if l.Current["isEnabled"] == "false" && l.Current["connectionHost"] == "" {
		s.resetLDAP()
	}
}

// ldapProblems says why a configuration cannot connect, as stateUnready reasons. A
// disabled configuration connects to nothing, so it is always valid. The reasons are the
// simulator's wording of what an LDAP client meets: an unknown host, a closed port, the
// bind refused with LDAP result 49 (RFC 4511 invalidCredentials), a base DN that holds
// nothing. The service's own wording is undocumented.
func (s *Sim) ldapProblems(cfg map[string]any) []string {
	if cfg["isEnabled"] != "true" {
		return nil
	}
	host, _ := cfg["connectionHost"].(string)
	port := 0
	if n, ok := cfg["port"].(float64); ok {
		port = int(n)
	} else if n, ok := cfg["port"].(int); ok {
		port = n
	}
	addr := host + ":" + itoa(port)
	if host != DirectoryHost {
		return []string{"Unable to connect to the LDAP server " + addr + ": no such host"}
	}
	if want := map[string]int{"LDAPS": 636, "LDAP": 389}[toString(cfg["secureMode"])]; port != want {
		return []string{"Unable to connect to the LDAP server " + addr + ": connection refused"}
	}
	credID, _ := cfg["credentialId"].(string)
	cred := s.st.Credentials[credID]
	if cred == nil {
		return []string{"The LDAP bind credential " + credID + " doesn't exist"}
	}
	if !containsString(s.st.Identity.Directory.BindDigests, cred.KeyDigest) {
		return []string{"Unable to bind to the LDAP server " + addr + `: LDAP Result Code 49 "Invalid Credentials"`}
	}
	var out []string
	for _, key := range []string{"userBaseDN", "groupBaseDN"} {
		base, _ := cfg[key].(string)
		found := false
		for _, e := range s.st.Identity.Directory.Entries {
			found = found || under(e.DN, base)
		}
		if !found {
			out = append(out, "The "+key+" "+base+" holds no entries in the LDAP directory")
		}
	}
	sort.Strings(out)
	return out
}

// resetLDAP is the reset (disabled, connectionHost ""): every LDAP user and group goes,
// with their role bindings (AA-DOCS wf_ldap_disable_reset).
func (s *Sim) resetLDAP() {
	ident := s.st.Identity
	for _, u := range ident.sortedUsers() {
		if u.AuthProvider == authLDAP {
			s.removeUser(u.ID)
		}
	}
	for _, g := range ident.sortedGroups() {
		s.removeGroup(g.ID)
	}
}
