package astrasim

import (
	"net/http"
	"strings"

	"github.com/astra-control/terraform-provider-astra/internal/apispec"
)

// canonicalCloudType is how the service answers each cloudType (research §4.1).
var canonicalCloudType = map[string]string{"private": "private", "gcp": "GCP", "azure": "Azure", "aws": "AWS"}

func (s *Sim) listClouds(q *request) *reply {
	var items []map[string]any
	for _, c := range s.st.sortedClouds() {
		items = append(items, s.renderCloud(c))
	}
	return s.list(q, apispec.Cloud, items)
}

func (s *Sim) lookupCloud(q *request) (*cloud, *apiProblem) {
	c := s.st.Clouds[q.params["cloud_id"]]
	if c == nil {
		return nil, notFound(q)
	}
	return c, nil
}

func (s *Sim) getCloud(q *request) *reply {
	c, p := s.lookupCloud(q)
	if p != nil {
		return fail(p)
	}
	return answer(http.StatusOK, apispec.Cloud, apispec.GetResponse, c.Version, s.renderCloud(c))
}

func (s *Sim) postCloud(q *request) *reply {
	b, p := s.readBody(q, apispec.Cloud, apispec.PostRequest)
	if p != nil {
		return fail(p)
	}
	name, _ := b.str("name")
	rawType, _ := b.str("cloudType")
	cloudType := canonicalCloudType[strings.ToLower(rawType)]
	credID, _ := b.str("credentialID")
	if cloudType != "private" && credID == "" {
		return fail(invalidFields(9, fieldReason{"credentialID", "a " + cloudType + " cloud needs the credential of its service account"}))
	}
	if credID != "" && s.st.Credentials[credID] == nil {
		return fail(invalidFields(9, fieldReason{"credentialID", "no credential has this ID"}))
	}
	if s.cloudNamed(name, "") != nil {
		return fail(problem(140))
	}
	if p := s.unknownBucket(b); p != nil {
		return fail(p)
	}
	labels, _ := labelsOf(b)
	if labels == nil {
		labels = []label{}
	}
	c := &cloud{
		Seq: s.st.nextSeq(), ID: s.newID(), Version: b.version, Name: name, CloudType: cloudType,
		State: "running", StateUnready: []string{}, CredentialID: credID,
		Meta: meta{Labels: labels, Created: q.now, Modified: q.now, CreatedBy: q.user.userID},
	}
	c.DefaultBucketID, _ = b.str("defaultBucketID")
	s.st.Clouds[c.ID] = c
	s.discoverInNewCloud(c, q.now)
	if s.opts.Delays.Discover > 0 {
		c.State = "pending"
		c.Pending = &transition{Kind: transCloudReady, At: q.now.Add(s.opts.Delays.Discover)}
	}
	return created(q, s.accountPath()+"/topology/v1/clouds/"+c.ID, apispec.Cloud, c.Version, s.renderCloud(c))
}

func (s *Sim) cloudNamed(name, except string) *cloud {
	for _, c := range s.st.Clouds {
		if c.Name == name && c.ID != except {
			return c
		}
	}
	return nil
}

func (s *Sim) putCloud(q *request) *reply {
	c, p := s.lookupCloud(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderCloud(c)); p != nil {
		return fail(p)
	}
	b, p := s.readBody(q, apispec.Cloud, apispec.PutRequest)
	if p != nil {
		return fail(p)
	}
	if id, ok := b.str("id"); ok && id != c.ID {
		return fail(invalidFields(10, fieldReason{"id", "the id differs from the cloud's"}))
	}
	if ct, ok := b.str("cloudType"); ok && canonicalCloudType[strings.ToLower(ct)] != c.CloudType {
		return fail(invalidFields(10, fieldReason{"cloudType", "the cloudType of a cloud can't change"}))
	}
	if name, ok := b.str("name"); ok && s.cloudNamed(name, c.ID) != nil {
		return fail(problem(140))
	}
	if credID, ok := b.str("credentialID"); ok && s.st.Credentials[credID] == nil {
		return fail(invalidFields(9, fieldReason{"credentialID", "no credential has this ID"}))
	}
	if p := s.unknownBucket(b); p != nil {
		return fail(p)
	}
	if name, ok := b.str("name"); ok {
		c.Name = name
	}
	if credID, ok := b.str("credentialID"); ok {
		c.CredentialID = credID
	}
	if bucket, ok := b.str("defaultBucketID"); ok {
		c.DefaultBucketID = bucket
	}
	if labels, ok := labelsOf(b); ok {
		c.Meta.Labels = mergeLabels(c.Meta.Labels, labels)
	}
	c.Version = b.version
	touch(&c.Meta, q)
	return s.updated(q, apispec.Cloud, c.Version, s.renderCloud(c))
}

// deleteCloud removes a cloud and its unmanaged clusters; managed ones block it (141).
func (s *Sim) deleteCloud(q *request) *reply {
	c, p := s.lookupCloud(q)
	if p != nil {
		return fail(p)
	}
	if p := s.checkIfMatch(q.r, s.renderCloud(c)); p != nil {
		return fail(p)
	}
	clusters := s.st.sortedClusters(func(cl *cluster) bool { return cl.CloudID == c.ID })
	for _, cl := range clusters {
		if cl.managed() {
			return fail(problem(141))
		}
	}
	for _, cl := range clusters {
		s.st.removeCluster(cl)
	}
	delete(s.st.Clouds, c.ID)
	return noContent()
}

// touch records a modification.
func touch(m *meta, q *request) {
	m.Modified = q.now
	m.ModifiedBy = q.user.userID
}

// newID is the next generated object ID.
func (s *Sim) newID() string {
	s.st.NextID++
	return derivedUUID4(s.opts.Seed, "object/"+itoa(s.st.NextID))
}
