package astrasim

import "sync"

// counters counts requests by method and route, for tests and benchmarks; conditional
// counts those of them that carried If-Match.
type counters struct {
	mu          sync.Mutex
	m           map[string]int
	conditional map[string]int
}

func (c *counters) add(method, route string, conditional bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m, c.conditional = map[string]int{}, map[string]int{}
	}
	c.m[method+" "+route]++
	if conditional {
		c.conditional[method+" "+route]++
	}
}

// Count is how many requests of method reached route, where route is the spec's path
// template without /accounts/{account_id}, e.g.
// Count("POST", "/topology/v1/clouds/{cloud_id}/clusters"). Requests that match no route
// count under "(unmatched)". Faulted and refused requests count too.
func (s *Sim) Count(method, route string) int {
	s.counters.mu.Lock()
	defer s.counters.mu.Unlock()
	return s.counters.m[method+" "+route]
}

// CountConditional is how many of Count(method, route) carried an If-Match header.
func (s *Sim) CountConditional(method, route string) int {
	s.counters.mu.Lock()
	defer s.counters.mu.Unlock()
	return s.counters.conditional[method+" "+route]
}

// Counts returns a copy of every counter, keyed "METHOD route".
func (s *Sim) Counts() map[string]int {
	s.counters.mu.Lock()
	defer s.counters.mu.Unlock()
	out := make(map[string]int, len(s.counters.m))
	for k, v := range s.counters.m {
		out[k] = v
	}
	return out
}

// ResetCounts sets every counter back to zero.
func (s *Sim) ResetCounts() {
	s.counters.mu.Lock()
	defer s.counters.mu.Unlock()
	s.counters.m, s.counters.conditional = nil, nil
}
