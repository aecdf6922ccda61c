package astra

import (
	"context"
	"errors"
	"net/http"
)

// Finders answer "did my lost POST create something?" after an UnknownOutcomeError. They
// ask the server to filter when the values fit its filter grammar, fall back to the whole
// collection when the server refuses the filter, and always check every match themselves.
// They return nil, nil when nothing matches and an *AmbiguousMatchError when several do.

// ClusterMatch describes a cluster: every non-empty field must match.
type ClusterMatch struct {
	Name         string
	APIServiceID string
	CredentialID string
}

func (m ClusterMatch) matches(c *Cluster) bool {
	return (m.Name == "" || c.Name == m.Name) &&
		(m.APIServiceID == "" || c.APIServiceID == m.APIServiceID) &&
		(m.CredentialID == "" || c.CredentialID == m.CredentialID)
}

func (m ClusterMatch) filters() []Filter {
	var fs []Filter
	for _, f := range []Filter{Eq("name", m.Name), Eq("apiServiceID", m.APIServiceID), Eq("credentialID", m.CredentialID)} {
		if f.Value != "" && Filterable(f.Value) {
			fs = append(fs, f)
		}
	}
	return fs
}

// FindCluster finds the cluster in cloudID ("" for every cloud) that matches m.
func (c *Client) FindCluster(ctx context.Context, cloudID string, m ClusterMatch) (*Cluster, error) {
	if m == (ClusterMatch{}) {
		return nil, errors.New("astra: a cluster search needs a name, an API service ID or a credential ID")
	}
	listFn := func(opts ListOptions) ([]Cluster, error) { return c.ListClusters(ctx, cloudID, opts) }
	return findOne(listFn, m.filters(), m.matches, "cluster")
}

// FindCredential finds the credential named name.
func (c *Client) FindCredential(ctx context.Context, name string) (*Credential, error) {
	if name == "" {
		return nil, errors.New("astra: a credential search needs a name")
	}
	listFn := func(opts ListOptions) ([]Credential, error) { return c.ListCredentials(ctx, opts) }
	return findOne(listFn, nameFilter(name), func(cr *Credential) bool { return cr.Name == name }, "credential")
}

// FindCloud finds the cloud named name.
func (c *Client) FindCloud(ctx context.Context, name string) (*Cloud, error) {
	if name == "" {
		return nil, errors.New("astra: a cloud search needs a name")
	}
	listFn := func(opts ListOptions) ([]Cloud, error) { return c.ListClouds(ctx, opts) }
	return findOne(listFn, nameFilter(name), func(cl *Cloud) bool { return cl.Name == name }, "cloud")
}

func nameFilter(name string) []Filter {
	if !Filterable(name) {
		return nil
	}
	return []Filter{Eq("name", name)}
}

// findOne lists with filters (or without, if the server refuses them) and returns the single
// item that match accepts.
func findOne[T any](listFn func(ListOptions) ([]T, error), filters []Filter, match func(*T) bool, what string) (*T, error) {
	items, err := listFn(ListOptions{Filters: filters})
	if len(filters) > 0 && filterRefused(err) {
		items, err = listFn(ListOptions{})
	}
	if err != nil {
		return nil, err
	}
	var found []*T
	for i := range items {
		if match(&items[i]) {
			found = append(found, &items[i])
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	default:
		return nil, &AmbiguousMatchError{What: what, Count: len(found)}
	}
}

// filterRefused reports a 400 about query parameters (problems 5 and 6).
func filterRefused(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusBadRequest &&
		(apiErr.Problem == 5 || apiErr.Problem == 6 || len(apiErr.InvalidParams) > 0)
}

// FilterRefused reports whether a list failed because the service refused its filter (a
// 400 about query parameters): the caller can list without it and filter itself.
func FilterRefused(err error) bool { return filterRefused(err) }
