package astrasim

import (
	"regexp"
	"strings"
)

// The simulator runs no Kubernetes, yet execution hooks match containers (matchingCriteria)
// and answer the ones they match (matchingContainers). So an app's workloads are modelled,
// deterministically: each namespaceScopedResources entry is one pod with one container,
// named after the entry's first equality selector value ("app=mysql" -> "mysql"), else
// after its namespace; the pod is "<name>-0" with the label app=<name> plus the selector's
// equality labels, and the container's image is "docker.io/library/<name>:latest". So a
// namespace "wordpress" answers the image docker.io/library/wordpress:latest, and a hook
// with containerImage "\bmysql\b" matches an app scoped with app=mysql.

// container is one modelled container of an app.
type container struct {
	Pod, Name, Image, Namespace string
	Labels                      []label
}

// appContainers models an app's containers, one per namespace scope entry, in order.
func appContainers(a *app) []container {
	var out []container
	seen := map[string]bool{}
	for _, scope := range a.NamespaceScope {
		name := scope.Namespace
		labels := []label{}
		for _, sel := range scope.LabelSelectors {
			for _, term := range strings.Split(sel, ",") {
				k, v, ok := equalityTerm(term)
				if !ok {
					continue
				}
				if len(labels) == 0 {
					name = v
				}
				labels = append(labels, label{Name: k, Value: v})
			}
		}
		if !hasLabel(labels, "app") {
			labels = append([]label{{Name: "app", Value: name}}, labels...)
		}
		c := container{Pod: name + "-0", Name: name, Image: "docker.io/library/" + name + ":latest", Namespace: scope.Namespace, Labels: labels}
		if key := c.Namespace + "/" + c.Pod; !seen[key] {
			seen[key] = true
			out = append(out, c)
		}
	}
	return out
}

// equalityTerm reads "k=v" or "k==v" (not "!="); other selector terms name no label value.
func equalityTerm(term string) (string, string, bool) {
	term = strings.TrimSpace(term)
	if strings.Contains(term, "!=") || strings.ContainsAny(term, " ()") {
		return "", "", false
	}
	k, v, ok := strings.Cut(term, "=")
	v = strings.TrimPrefix(v, "=")
	if !ok || k == "" || v == "" {
		return "", "", false
	}
	return k, v, true
}

func hasLabel(ls []label, name string) bool {
	for _, l := range ls {
		if l.Name == name {
			return true
		}
	}
	return false
}

// criterion is one matchingCriteria entry: a type and an RE2 regular expression.
type criterion struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// matches reports whether a container meets one criterion; a podLabel criterion matches
// "name=value" of any of the pod's labels.
func (c criterion) matches(ct container) bool {
	re, err := regexp.Compile(c.Value) // validated when stored
	if err != nil {
		return false
	}
	switch c.Type {
	case "containerImage":
		return re.MatchString(ct.Image)
	case "containerName":
		return re.MatchString(ct.Name)
	case "podName":
		return re.MatchString(ct.Pod)
	case "namespaceName":
		return re.MatchString(ct.Namespace)
	case "podLabel":
		for _, l := range ct.Labels {
			if re.MatchString(l.Name + "=" + l.Value) {
				return true
			}
		}
	}
	return false
}

// matchingContainers are the containers that meet every criterion (they are ANDed, as the
// spec says); no criteria match every container.
func matchingContainers(cs []container, criteria []criterion) []container {
	var out []container
	for _, ct := range cs {
		ok := true
		for _, c := range criteria {
			ok = ok && c.matches(ct)
		}
		if ok {
			out = append(out, ct)
		}
	}
	return out
}
