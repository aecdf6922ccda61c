package validate

import (
	"crypto/sha256"
	"sync"

	"github.com/astra-control/terraform-provider-astra/internal/kubeconfig"
)

// The CLI validates every configuration several times in one run (validate, plan, apply's
// plan), and a fleet holds a kubeconfig per cluster: parsing each YAML document every time
// was a tenth of a 1000-cluster plan's allocations. A check is a pure function of its text,
// so its answer is kept, by the text's digest (the text itself is a secret and is not kept).

// maxMemo bounds a memo: past it, it starts again empty.
const maxMemo = 4096

type memo struct {
	parse func(string) error

	mu      sync.Mutex
	answers map[[sha256.Size]byte]error
}

var kubeconfigChecks = &memo{parse: func(s string) error {
	_, _, err := kubeconfig.Parse([]byte(s))
	return err
}}

func (m *memo) check(s string) error {
	key := sha256.Sum256([]byte(s))
	m.mu.Lock()
	err, ok := m.answers[key]
	m.mu.Unlock()
	if ok {
		return err
	}
	err = m.parse(s)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.answers == nil || len(m.answers) >= maxMemo {
		m.answers = map[[sha256.Size]byte]error{}
	}
	m.answers[key] = err
	return err
}
