// Package kubeconfig checks a kubeconfig before it is stored as an Astra Control credential
// and re-encodes it as the compact JSON the service expects.
//
// A kubeconfig holds secrets (tokens, client keys), so no error here ever quotes its
// content, not even the parser's messages, which can: errors say what is wrong and where.
package kubeconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// Info names the parts of a kubeconfig that callers show or use as defaults.
type Info struct {
	ClusterName string // the only cluster's name
	ContextName string // the only context's name
	Server      string // the cluster's API server URL
	User        string // the user the context names
}

// document is the part of a kubeconfig this package checks; everything else is kept
// as is in the re-encoded JSON.
type document struct {
	Clusters []struct {
		Name    string `json:"name"`
		Cluster struct {
			Server string `json:"server"`
		} `json:"cluster"`
	} `json:"clusters"`
	Contexts []struct {
		Name    string `json:"name"`
		Context struct {
			Cluster string `json:"cluster"`
			User    string `json:"user"`
		} `json:"context"`
	} `json:"contexts"`
	Users []struct {
		Name string `json:"name"`
	} `json:"users"`
	CurrentContext string `json:"current-context"`
}

// Parse accepts YAML or JSON text, requires exactly one cluster and one context (and the
// context must name that cluster), and returns the kubeconfig re-encoded as compact JSON.
// Errors never quote the kubeconfig's content (it holds secrets); they name what is wrong.
func Parse(text []byte) (jsonDoc []byte, info Info, err error) {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, Info{}, errors.New("kubeconfig is empty")
	}
	converted, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, Info{}, fmt.Errorf("kubeconfig is not valid YAML or JSON%s", where(err))
	}
	trimmed := bytes.TrimSpace(converted)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, Info{}, errors.New("kubeconfig is not a YAML or JSON mapping (expected keys such as clusters, contexts and users)")
	}
	if info, err = InfoOf(trimmed); err != nil {
		return nil, Info{}, err
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, trimmed); err != nil {
		return nil, Info{}, errors.New("kubeconfig could not be re-encoded as JSON")
	}
	return compact.Bytes(), info, nil
}

// InfoOf checks a kubeconfig given as JSON (what Parse converts YAML to, and what it
// returns) and names its parts: a tenth of the work of parsing that JSON again as YAML (a
// credential notes its server after each write).
func InfoOf(jsonDoc []byte) (Info, error) {
	var doc document
	if err := json.Unmarshal(jsonDoc, &doc); err != nil {
		return Info{}, fmt.Errorf("kubeconfig has an unexpected shape: %s", shapeProblem(err))
	}
	if err := check(doc); err != nil {
		return Info{}, err
	}
	cluster, ctx := doc.Clusters[0], doc.Contexts[0]
	return Info{ClusterName: cluster.Name, ContextName: ctx.Name, Server: cluster.Cluster.Server, User: ctx.Context.User}, nil
}

// check applies Astra's rule (one cluster, one context) and the checks kubectl would make.
func check(doc document) error {
	if n := len(doc.Contexts); n > 1 {
		names := make([]string, n)
		for i, c := range doc.Contexts {
			names[i] = fmt.Sprintf("%q", c.Name)
		}
		return fmt.Errorf("kubeconfig must define exactly one context; found %d (%s). %s",
			n, strings.Join(names, ", "), minifyFix)
	}
	if n := len(doc.Clusters); n != 1 {
		names := make([]string, n)
		for i, c := range doc.Clusters {
			names[i] = fmt.Sprintf("%q", c.Name)
		}
		found := fmt.Sprint(n)
		if n > 1 {
			found += " (" + strings.Join(names, ", ") + "). " + minifyFix
		}
		return fmt.Errorf("kubeconfig must define exactly one cluster; found %s", found)
	}
	if n := len(doc.Contexts); n != 1 {
		return fmt.Errorf("kubeconfig must define exactly one context; found %d", n)
	}
	cluster, ctx := doc.Clusters[0], doc.Contexts[0]
	if cluster.Name == "" {
		return errors.New("kubeconfig's cluster has no name")
	}
	if strings.TrimSpace(cluster.Cluster.Server) == "" {
		return errors.New("kubeconfig's cluster has no server URL")
	}
	if ctx.Name == "" {
		return errors.New("kubeconfig's context has no name")
	}
	if ctx.Context.Cluster != cluster.Name {
		return errors.New("kubeconfig's context refers to a cluster other than the one it defines")
	}
	if ctx.Context.User != "" && len(doc.Users) > 0 && !hasUser(doc, ctx.Context.User) {
		return errors.New("kubeconfig's context refers to a user it does not define")
	}
	if doc.CurrentContext != "" && doc.CurrentContext != ctx.Name {
		return errors.New("kubeconfig's current-context is not the context it defines")
	}
	return nil
}

// minifyFix is the usual way to cut a kubeconfig down to the one context Astra Control takes.
const minifyFix = "Write one with only the context of this cluster: " +
	"`kubectl config view --minify --flatten --context=NAME > cluster.kubeconfig`"

func hasUser(doc document, name string) bool {
	for _, u := range doc.Users {
		if u.Name == name {
			return true
		}
	}
	return false
}

var lineNumber = regexp.MustCompile(`line ([0-9]+)`)

// where keeps only the line number of a parser error, whose text may quote the input.
func where(err error) string {
	if m := lineNumber.FindStringSubmatch(err.Error()); m != nil {
		return " (line " + m[1] + ")"
	}
	return ""
}

// shapeProblem names the member that has the wrong type, without its value.
func shapeProblem(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return typeErr.Field + " should be " + kindOf(typeErr.Type.Kind().String())
	}
	return "a member has the wrong type"
}

func kindOf(kind string) string {
	switch kind {
	case "slice":
		return "a list"
	case "struct":
		return "a mapping"
	default:
		return "a " + kind
	}
}
