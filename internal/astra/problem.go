package astra

import (
	"bytes"
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// problemBody is an RFC 7807 problem as Astra Control serves it. Its `status` member (a
// string in the published schema, a number elsewhere) is deliberately not modelled: the
// HTTP status is authoritative, and an odd status spelling must not hide the rest.
type problemBody struct {
	Type                    string         `json:"type"`
	Title                   string         `json:"title"`
	Detail                  string         `json:"detail"`
	CorrelationID           string         `json:"correlationID"`
	InvalidFields           []InvalidField `json:"invalidFields"`
	InvalidParams           []InvalidField `json:"invalidParams"`
	SchemaValidationFailure string         `json:"schemaValidationFailure"`
}

const excerptLimit = 300

var problemNumber = regexp.MustCompile(`/problems/([0-9]+)/?$`)

// newAPIError reads an error answer. A problem body fills the typed fields; anything else (a
// proxy's HTML page, plain text, unrelated JSON) becomes a short readable excerpt.
func newAPIError(method, path string, status int, header http.Header, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status}
	var p problemBody
	var ignored map[string]json.RawMessage
	trimmed := bytes.TrimSpace(body)
	// Member by member, so one ill-typed member (invalidFields as strings, say) loses only itself.
	if len(trimmed) > 0 && trimmed[0] == '{' && decodeKeepingExtra(trimmed, &p, &ignored) == nil &&
		(p.Type != "" || p.Title != "" || p.Detail != "") {
		e.Type = clean(p.Type, excerptLimit)
		e.Title = clean(p.Title, excerptLimit)
		e.Detail = clean(p.Detail, 1000)
		e.CorrelationID = clean(p.CorrelationID, 64)
		e.InvalidFields = p.InvalidFields
		e.InvalidParams = p.InvalidParams
		e.SchemaValidationFailure = clean(p.SchemaValidationFailure, 1000)
		if m := problemNumber.FindStringSubmatch(p.Type); m != nil {
			e.Problem, _ = strconv.Atoi(m[1])
		}
	} else {
		e.Body = excerpt(trimmed, header.Get("Content-Type"))
	}
	if e.CorrelationID == "" {
		e.CorrelationID = correlationHeader(header)
	}
	return e
}

var (
	scriptOrStyle = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)\s*>`)
	htmlTitle     = regexp.MustCompile(`(?is)<title\b[^>]*>(.*?)</title\s*>`)
	htmlTag       = regexp.MustCompile(`(?s)<[^>]*>`)
	spaces        = regexp.MustCompile(`\s+`)
)

// excerpt turns a non-problem body into at most excerptLimit characters of readable text:
// markup stripped, entities decoded, whitespace collapsed, control characters dropped.
func excerpt(body []byte, contentType string) string {
	if len(body) == 0 {
		return ""
	}
	text := string(body)
	if strings.Contains(strings.ToLower(contentType), "html") || looksLikeHTML(text) {
		title := ""
		if m := htmlTitle.FindStringSubmatch(text); m != nil {
			title = clean(htmlTag.ReplaceAllString(m[1], " "), excerptLimit)
		}
		text = htmlTitle.ReplaceAllString(text, " ")
		text = scriptOrStyle.ReplaceAllString(text, " ")
		text = htmlTag.ReplaceAllString(text, " ")
		text = clean(text, excerptLimit)
		if title != "" && !strings.HasPrefix(text, title) {
			text = clean(title+": "+text, excerptLimit)
		}
		return text
	}
	return clean(text, excerptLimit)
}

func looksLikeHTML(text string) bool {
	head := strings.ToLower(strings.TrimSpace(text))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") ||
		strings.Contains(head, "<body")
}

// clean decodes HTML entities, drops control characters, collapses whitespace and cuts
// the text to limit characters.
func clean(text string, limit int) string {
	text = strings.ReplaceAll(html.UnescapeString(text), "\u00a0", " ")
	text = strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, text)
	text = strings.TrimSpace(spaces.ReplaceAllString(text, " "))
	return truncate(text, limit)
}

// truncate cuts s to at most limit characters, marking the cut with "…".
func truncate(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	runes := []rune(s)
	return string(runes[:limit-1]) + "…"
}
