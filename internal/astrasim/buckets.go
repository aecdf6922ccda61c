package astrasim

import (
	"net/http"
	"slices"
	"sort"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// Buckets (research §4.6): a new bucket is pending until the service has reached it, then
// available; failed, with stateDetails, when its credential is not a bucket credential or
// the bucket cannot be reached (Options.UnreachableBuckets). Astra only records a bucket:
// deleting it leaves the object store alone.

// bucketParamsKey is the bucketParameters member each provider takes.
var bucketParamsKey = map[string]string{
	"ontap-s3": "s3", "storagegrid-s3": "s3", "generic-s3": "s3", "aws": "s3", "gcp": "gcp", "azure": "azure",
}

// bucketStateDetailType is the type URI of the stateDetails the simulator writes. A state
// detail is not a problem: it takes the form of the app's (…/stateDetails/<reason>), not
// problem 127's URI, which the service answers to a request.
const bucketStateDetailType = "https://astra.netapp.io/stateDetails/bucketUnavailable"

func (s *Sim) listBuckets(q *request) *reply {
	var items []map[string]any
	for _, b := range s.st.sortedBuckets() {
		items = append(items, s.renderBucket(b))
	}
	return s.list(q, apispec.Bucket, items)
}

func (s *Sim) lookupBucket(q *request) (*bucket, *apiProblem) {
	b := s.st.Buckets[q.params["bucket_id"]]
	if b == nil {
		return nil, notFound(q)
	}
	return b, nil
}

func (s *Sim) getBucket(q *request) *reply {
	b, p := s.lookupBucket(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.Bucket, apispec.GetResponse, b.Version, s.renderBucket(b))
}

// bucketParams reads bucketParameters, which must hold exactly the member the provider takes.
func bucketParams(in *body, provider string) (map[string]map[string]string, *apiProblem) {
	raw, _ := in.fields["bucketParameters"].(map[string]any)
	want := bucketParamsKey[provider]
	var keys []string
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) != 1 || keys[0] != want {
		return nil, invalidFields(9, fieldReason{"bucketParameters", "a " + provider + " bucket takes exactly bucketParameters." + want})
	}
	out := map[string]map[string]string{want: {}}
	member, _ := raw[want].(map[string]any)
	for k, v := range member {
		if str, ok := v.(string); ok {
			out[want][k] = str
		}
		if out[want][k] == "" {
			return nil, invalidFields(9, fieldReason{"bucketParameters." + want + "." + k, "must not be empty"})
		}
	}
	return out, nil
}

// bucketKey names the bucket in its object store: provider, server (or storage account)
// and bucket name. Two records of one bucket are refused (problem 57).
func bucketKey(provider string, params map[string]map[string]string) string {
	p := params[bucketParamsKey[provider]]
	return provider + "|" + p["serverURL"] + p["storageAccount"] + "|" + p["bucketName"]
}

func (s *Sim) postBucket(q *request) *reply {
	in, p := s.readBody(q, apispec.Bucket, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	provider, _ := in.str("provider")
	params, p := bucketParams(in, provider)
	if p != nil {
		return fail(p)
	}
	credID, _ := in.str("credentialID")
	if s.st.Credentials[credID] == nil {
		return fail(invalidFields(9, fieldReason{"credentialID", "no credential has this ID"}))
	}
	key := bucketKey(provider, params)
	for _, other := range s.st.Buckets {
		if bucketKey(other.Provider, other.Params) == key {
			return fail(problem(57))
		}
	}
	name, _ := in.str("name")
	labels, _ := labelsOf(in)
	if labels == nil {
		labels = []label{}
	}
	b := &bucket{
		Seq: s.st.nextSeq(), ID: s.newID(), Version: in.version, Name: name, CredentialID: credID,
		Provider: provider, Params: params, StateDetails: []stateDetail{},
		Meta: meta{Labels: labels, Created: q.now, Modified: q.now, CreatedBy: q.user.userID},
	}
	s.st.Buckets[b.ID] = b
	s.discoverBucket(b, q)
	return created(q, s.accountPath()+"/topology/v1/buckets/"+b.ID, apispec.Bucket, b.Version, s.renderBucket(b))
}

// discoverBucket starts reaching a new bucket, or a bucket with a new credential: pending,
// then (at once unless Delays.Bucket) available or failed.
func (s *Sim) discoverBucket(b *bucket, q *request) {
	b.State, b.StateDetails = "pending", []stateDetail{}
	if s.opts.Delays.Bucket > 0 {
		b.Pending = &transition{Kind: transBucketReady, At: q.now.Add(s.opts.Delays.Bucket)}
		return
	}
	b.Pending = nil
	s.bucketReached(b)
}

// bucketReached ends a bucket's discovery: available, or failed with the reason.
func (s *Sim) bucketReached(b *bucket) {
	reason := s.bucketCredentialProblem(b.CredentialID)
	if reason == "" && slices.Contains(s.opts.UnreachableBuckets, b.Params[bucketParamsKey[b.Provider]]["bucketName"]) {
		reason = "The bucket can't be reached with its credential: the object store answered that it does not exist or refused access."
	}
	if reason != "" {
		b.State = "failed"
		b.StateDetails = []stateDetail{{Type: bucketStateDetailType, Title: "Bucket unavailable", Detail: reason}}
		return
	}
	b.State, b.StateDetails = "available", []stateDetail{}
}

// bucketCredentialProblem says why credential id cannot open a bucket, or "" (the rule is
// bucketCredential's, research §4.6).
func (s *Sim) bucketCredentialProblem(id string) string {
	cred := s.st.Credentials[id]
	switch {
	case cred == nil:
		return "The bucket's credential " + id + " was deleted."
	case s.st.bucketCredential(id):
		return ""
	}
	return "Credential " + id + " is not a bucket credential (keyType " + cred.KeyType + "): a bucket needs an s3 key pair or a service account."
}

func (s *Sim) putBucket(q *request) *reply {
	b, p := s.lookupBucket(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBucket(b)); p != nil {
		return fail(p)
	}
	in, p := s.readBody(q, apispec.Bucket, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := in.str("id"); ok && id != b.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the bucket's"}))
	}
	if provider, ok := in.str("provider"); ok && provider != b.Provider {
		return fail(invalidFields(10, fieldReason{"provider", "the provider of a bucket can't change"}))
	}
	if _, ok := in.fields["bucketParameters"]; ok {
		params, p := bucketParams(in, b.Provider)
		if p != nil {
			return fail(p)
		}
		if bucketKey(b.Provider, params) != bucketKey(b.Provider, b.Params) {
			return fail(invalidFields(10, fieldReason{"bucketParameters", "the object-store bucket of a bucket can't change"}))
		}
	}
	credID, hasCred := in.str("credentialID")
	if hasCred && s.st.Credentials[credID] == nil {
		return fail(invalidFields(9, fieldReason{"credentialID", "no credential has this ID"}))
	}
	if name, ok := in.str("name"); ok {
		b.Name = name
	}
	if labels, ok := labelsOf(in); ok {
		b.Meta.Labels = mergeLabels(b.Meta.Labels, labels)
	}
	b.Version = in.version
	touch(&b.Meta, q)
	if hasCred && credID != b.CredentialID {
		b.CredentialID = credID
		s.discoverBucket(b, q)
	}
	return s.updated(q, apispec.Bucket, b.Version, s.renderBucket(b))
}

// deleteBucket forgets a bucket; a cloud's or a managed cluster's default bucket is refused
// (problems 84 and 175), and so is a bucket in use (problem 83, bucketuse.go), with the
// detail naming who uses it.
func (s *Sim) deleteBucket(q *request) *reply {
	b, p := s.lookupBucket(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderBucket(b)); p != nil {
		return fail(p)
	}
	for _, c := range s.st.sortedClouds() {
		if c.DefaultBucketID == b.ID {
			p := problem(84)
			p.Detail = "The bucket is the default bucket of cloud " + c.Name + " (" + c.ID + ") and can't be removed."
			return fail(p)
		}
	}
	for _, c := range s.st.sortedClusters((*cluster).managed) {
		if c.DefaultBucketID == b.ID {
			p := problem(175)
			p.Detail = "The bucket is the default bucket of managed cluster " + c.Name + " (" + c.ID + ") and can't be removed."
			return fail(p)
		}
	}
	if p := s.bucketInUse(b); p != nil {
		return fail(p)
	}
	delete(s.st.Buckets, b.ID)
	return noContent()
}

// unknownBucket is problem 108 when a defaultBucketID names no bucket ("" clears it).
func (s *Sim) unknownBucket(in *body) *apiProblem {
	if id, ok := in.str("defaultBucketID"); ok && id != "" && s.st.Buckets[id] == nil {
		p := problem(108)
		p.Detail = "No bucket has the ID " + id + " given as defaultBucketID."
		return p
	}
	return nil
}

func (s *Sim) renderBucket(b *bucket) map[string]any {
	details := make([]any, 0, len(b.StateDetails))
	for _, d := range b.StateDetails {
		details = append(details, map[string]any{"type": d.Type, "title": d.Title, "detail": d.Detail})
	}
	params := map[string]any{}
	for k, member := range b.Params {
		m := map[string]any{}
		for name, v := range member {
			m[name] = v
		}
		params[k] = m
	}
	m := map[string]any{
		"type": "application/astra-bucket", "version": b.Version, "id": b.ID, "name": b.Name,
		"credentialID": b.CredentialID, "state": b.State, "stateDetails": details, "provider": b.Provider,
		"bucketParameters": params, "retentionTime": b.RetentionTime, "metadata": renderMeta(b.Meta),
	}
	if b.Name == "" {
		delete(m, "name")
	}
	return fitToSchema(s.responseSchema(apispec.Bucket, b.Version), m)
}
