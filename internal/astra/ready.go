package astra

import "strings"

// Ready predicates for Wait. States are compared case-insensitively: the service is not
// always consistent about case.

// ClusterRunning is done when state is running. failed is terminal, and so is removed with
// a reason (a kubeconfig that no longer reaches the cluster, or reaches another one): the
// cluster leaves it only after a change, so waiting longer cannot help. stateUnready gives
// the reasons.
func ClusterRunning(c *Cluster) (bool, error) {
	if is(c.State, "removed") && len(c.StateUnready) > 0 {
		return false, &TerminalStateError{What: "cluster " + c.ID, State: c.State, Reasons: c.StateUnready}
	}
	return ClusterRecollected(c)
}

// ClusterRecollected is ClusterRunning for a cluster that was removed before the change
// being waited for (a credential repaired): removed then only says the service has not yet
// collected it again, so only failed is terminal.
func ClusterRecollected(c *Cluster) (bool, error) {
	switch {
	case is(c.State, "running"):
		return true, nil
	case is(c.State, "failed"):
		return false, &TerminalStateError{What: "cluster " + c.ID, State: c.State, Reasons: c.StateUnready}
	}
	return false, nil
}

// ManagedClusterReady is done when managedState is managed and state is running. A failed
// state or an ineligible managedState is terminal, with the server's reasons.
func ManagedClusterReady(m *ManagedCluster) (bool, error) {
	what := "managed cluster " + m.ID
	switch {
	case is(m.State, "failed"):
		return false, &TerminalStateError{What: what, State: m.State, Reasons: m.StateUnready}
	case is(m.State, "removed") && len(m.StateUnready) > 0:
		return false, &TerminalStateError{What: what, State: m.State, Reasons: m.StateUnready}
	case is(m.ManagedState, "ineligible"):
		reasons := append([]string(nil), m.ManagedStateUnready...)
		for _, d := range m.ManagedStateDetails {
			reasons = append(reasons, detailText(d))
		}
		return false, &TerminalStateError{What: what, State: m.ManagedState, Reasons: reasons}
	}
	return is(m.ManagedState, "managed") && is(m.State, "running"), nil
}

// ClusterUnmanaged is done when managedState is no longer managed, managing or deleting.
func ClusterUnmanaged(c *Cluster) (bool, error) {
	return !is(c.ManagedState, "managed") && !is(c.ManagedState, "managing") && !is(c.ManagedState, "deleting"), nil
}

func is(value, want string) bool { return strings.EqualFold(strings.TrimSpace(value), want) }

func detailText(d StateDetail) string {
	switch {
	case d.Title != "" && d.Detail != "":
		return d.Title + ": " + d.Detail
	case d.Title != "":
		return d.Title
	}
	return d.Detail
}

// Describe names the cluster and its states for wait errors.
func (c *Cluster) Describe() (what, state string) {
	if c == nil {
		return "cluster", ""
	}
	return "cluster " + c.ID, states("state", c.State, "managedState", c.ManagedState) +
		reasons("stateUnready", c.StateUnready) + reasons("managedStateUnready", c.ManagedStateUnready)
}

// Describe names the managed cluster and its states for wait errors.
func (m *ManagedCluster) Describe() (what, state string) {
	if m == nil {
		return "managed cluster", ""
	}
	details := make([]string, 0, len(m.ManagedStateDetails))
	for _, d := range m.ManagedStateDetails {
		details = append(details, detailText(d))
	}
	return "managed cluster " + m.ID, states("state", m.State, "managedState", m.ManagedState) +
		reasons("stateUnready", m.StateUnready) + reasons("managedStateUnready", m.ManagedStateUnready) +
		reasons("managedStateDetails", details)
}

// Describe names the cloud and its state for wait errors.
func (c *Cloud) Describe() (what, state string) {
	if c == nil {
		return "cloud", ""
	}
	return "cloud " + c.ID, states("state", c.State) + reasons("stateUnready", c.StateUnready)
}

// states renders "name value" pairs, skipping empty values.
func states(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			parts = append(parts, pairs[i]+" "+pairs[i+1])
		}
	}
	return strings.Join(parts, ", ")
}

// reasons renders the service's reasons for a state after the states ("; stateUnready: a; b"),
// so a wait that times out still says why the object was not ready.
func reasons(name string, list []string) string {
	if len(list) == 0 {
		return ""
	}
	return "; " + name + ": " + strings.Join(list, "; ")
}
