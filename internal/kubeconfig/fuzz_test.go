package kubeconfig

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: any text is accepted or refused with an error, never a panic. An accepted
// kubeconfig comes back as valid JSON that parses again to the same cluster and context;
// a refusal never quotes the kubeconfig (it holds secrets): a token placed in the text
// (SECRET marks where) does not appear in the error unless the error is the same with
// any other token there.
func FuzzParse(f *testing.F) {
	f.Add([]byte(valid), "S3CR3TTOKENVALUE")
	f.Add([]byte(strings.Replace(valid, secret, "SECRET", 1)), "abcdefgh12345678")
	f.Add([]byte(`{"clusters":[{"name":"c","cluster":{"server":"https://x"}}],"contexts":[{"name":"x","context":{"cluster":"c","user":"u"}}],"users":[{"name":"u","user":{"token":"SECRET"}}]}`), "tok3nTOKEN")
	f.Add([]byte("clusters: SECRET\n"), "notalist0")
	f.Add([]byte("clusters:\n- name: c\n  cluster:\n    server: SECRET\n  bad: [\n"), "unterminated1")
	f.Add([]byte("- a\n- b\n"), "sequence00")
	f.Add([]byte("\xff\xfe"), "binary000")
	f.Fuzz(func(t *testing.T, text []byte, token string) {
		doc := bytes.ReplaceAll(text, []byte("SECRET"), []byte(token))
		jsonDoc, info, err := Parse(doc)
		if err != nil {
			msg := err.Error()
			if msg == "" || !utf8.ValidString(msg) || !strings.HasPrefix(msg, "kubeconfig") || len(msg) > 200 {
				t.Fatalf("refusal %q: want a short message that starts with \"kubeconfig\"", msg)
			}
			if leaks(token, msg) {
				other := strings.Repeat("Q", len(token))
				_, _, otherErr := Parse(bytes.ReplaceAll(text, []byte("SECRET"), []byte(other)))
				if otherErr == nil || otherErr.Error() != msg {
					t.Fatalf("the refusal quotes the token %q: %q", token, msg)
				}
			}
			return
		}
		if !json.Valid(jsonDoc) {
			t.Fatalf("accepted, but the JSON it returns is invalid: %q", jsonDoc)
		}
		_, again, err := Parse(jsonDoc)
		if err != nil || again != info {
			t.Fatalf("its own JSON parses to %+v, %v; want %+v", again, err, info)
		}
		if of, err := InfoOf(jsonDoc); err != nil || of != info {
			t.Fatalf("InfoOf its JSON is %+v, %v; want %+v", of, err, info)
		}
		if info.ClusterName == "" || info.ContextName == "" || strings.TrimSpace(info.Server) == "" {
			t.Fatalf("accepted without a cluster name, context name or server: %+v", info)
		}
	})
}

// leaks reports whether msg holds token, for tokens long and plain enough to be told
// apart from the message's own words.
func leaks(token, msg string) bool {
	if len(token) < 8 {
		return false
	}
	for _, r := range token {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return strings.Contains(msg, token)
}
