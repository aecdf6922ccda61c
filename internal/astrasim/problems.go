package astrasim

import (
	"strconv"
	"strings"
)

// problemBase is the prefix of every problem type URI.
const problemBase = "https://astra.netapp.io/problems/"

// problemDef is one entry of the service's problem catalogue. Titles and details of the
// problems the published documents define are the documents' own (their schemas pin them
// with enums); the others carry the catalogue title and a detail written here.
type problemDef struct {
	status int
	title  string
	detail string
}

var catalogue = map[int]problemDef{
	1:   {404, "Resource not found", "The resource specified in the request URI wasn't found."},
	2:   {404, "Collection not found", "The collection specified in the request URI wasn't found."},
	3:   {401, "Missing bearer token", "The request is missing the required bearer token."},
	4:   {401, "Invalid bearer token", "The bearer token provided is invalid, revoked, or doesn't exist."},
	5:   {400, "Invalid query parameters", "The supplied query parameters are invalid."},
	6:   {400, "Query parameters not supported", "The supplied query parameters aren't supported for this endpoint."},
	7:   {400, "Invalid JSON payload", "The request body is not valid JSON."},
	8:   {400, "Invalid JSON resource", "The request body JSON doesn't conform to the schema."},
	9:   {400, "Invalid JSON resource", "The request body JSON didn't pass extended validation."},
	10:  {409, "JSON resource conflict", "The request body JSON contains a field that conflicts with an idempotent value."},
	11:  {403, "Operation not permitted", "The requested operation isn't permitted."},
	12:  {400, "Invalid headers", "The request headers are invalid."},
	14:  {403, "Unauthorized access", "The user isn't enabled."}, // a wrong account's gateway wording: auth.go
	24:  {503, "Service unavailable", "The service is temporarily unavailable. Retry the request later."},
	32:  {406, "Unsupported content type", "The response can't be returned in the requested format."},
	33:  {400, "Invalid account ID", "The account ID (x-pcloud-accountid) in the request URI isn't valid."},
	34:  {500, "Internal server error", "The server was unable to process this request."},
	35:  {400, "Invalid resource ID", "The resource ID isn't in the appropriate format."},
	38:  {412, "Precondition not met", "The conditional headers aren't satisfied."},
	39:  {409, "Credential exists", "A credential of this type already exists."},
	40:  {502, "Communication failed", "Communication wasn't made with downstream services."},
	41:  {503, "Service not ready", "Currently, the service can't respond to this request."},
	44:  {409, "Kubeconfig exists", "A credential referencing this cluster already exists."},
	45:  {409, "Cluster exists", "The cluster was not added because it already exists."},
	57:  {409, "Bucket already exists", "The bucket was not added because Astra Control already manages a bucket with the same provider, server and bucket name."},
	58:  {400, "Trident not installed", "Trident isn't installed on this cluster. Install a supported version of Trident and retry the request."},
	59:  {400, "Trident version not supported", "The Trident version on this cluster isn't supported. Upgrade the Trident version and retry the request."},
	62:  {400, "Trident installation unhealthy", "Trident is installed on this cluster but can't be managed by the Trident operator. Restore Trident to a healthy state and retry the request."},
	63:  {400, "Kubeconfig not valid", "The kubeconfig of the credential can't be used to reach the cluster."},
	64:  {500, "Storage classes not found", "Storage classes from Trident weren't found."},
	65:  {500, "Cluster GET not performed", "The cluster GET call didn't perform the lookup operation on the cluster."},
	66:  {500, "Cloud GET not performed", "The cloud GET call didn't perform the lookup operation on the cloud."},
	67:  {400, "Cluster modify not supported", "The cloud type doesn't support modifying the cluster."},
	69:  {405, "Method not supported", "The request method isn't supported for this resource."},
	71:  {403, "Preloaded hook sources read only", "The hook source resource wasn't created, edited, or deleted. Hook source resources with a preloaded value of true are read only."},
	72:  {403, "Hook source referenced by execution hook", "The hook source resource wasn't deleted because it is referenced by an execution hook resource."},
	73:  {403, "NetApp execution hooks read only", "The execution hook resource wasn't created, edited, or deleted. Execution hook resources with a hookType of NetApp are read only."},
	83:  {409, "Bucket in use", "The bucket is in use and can't be removed."},
	84:  {409, "Bucket is default bucket", "The bucket is a default bucket and can't be removed."},
	85:  {413, "Request body too large", "The request body exceeds the maximum size."},
	91:  {500, "Application not deleted", "The application wasn't deleted because of an internal server issue."},
	92:  {405, "Cluster delete not supported", "The cloud type doesn't support deleting the cluster."},
	93:  {405, "Cluster create not supported", "The cloud type doesn't support creating the cluster."},
	94:  {500, "Backup not created", "The backup wasn't created because of an internal server issue."},
	95:  {500, "Backup not retrieved", "The backup wasn't retrieved because of an internal server issue."},
	96:  {500, "Backups not listed", "The backups didn't list because of an internal server issue."},
	97:  {500, "Backup not deleted", "The backup wasn't deleted because of an internal server issue."},
	107: {409, "Backup in progress", "The backup wasn't created because a backup of the application is already in progress."},
	108: {400, "Bucket not found", "The bucket specified in the request wasn't found."},
	111: {409, "Snapshot not ready", "The snapshot isn't completed yet, so a backup can't be taken from it."},
	112: {409, "Application not ready", "The application is currently unavailable."},
	119: {409, "Application not unmanaged", "The application wasn't unmanaged because it has an active replication relationship."},
	121: {409, "Application already exists", "The application wasn't managed because an application with the same name already exists on the cluster."},
	122: {400, "Namespace not found", "A namespace named in the request doesn't exist on the cluster."},
	128: {409, "Backup cancellation not allowed", "A pending backup can't be canceled."},
	131: {409, "Backup not supported", "The cluster is not eligible for backups."},
	132: {409, "Duplicate schedule", "The schedule wasn't created because the application already has a schedule of this granularity."},
	140: {409, "Duplicate cloud name", "The cloud instance was not created because a cloud with the same name already exists."},
	141: {409, "Action blocked: Delete cloud instance", "The cloud instance wasn't deleted because there are managed clusters associated with this cloud instance."},
	142: {409, "Backup or snapshot not deleted", "The backup or snapshot wasn't deleted."},
	143: {409, "Backup with the same name exists", "The resource wasn't created because a backup with the same name already exists."},
	144: {409, "Backup in progress", "The snapshot wasn't deleted because it is currently being used by a backup."},
	147: {400, "Invalid GVKN specified", "An invalid GVKN object was specified in the request. GVKN objects cannot be empty and values must conform to the API schema specification."},
	148: {409, "A snapshot is already in progress", "The requested operation is not possible because a snapshot is already in progress."},
	149: {409, "Snapshot not supported", "The application isn't eligible for snapshots."},
	151: {409, "Clone operation not supported", "The application isn't eligible for a clone operation."},
	152: {409, "In-place restore not supported", "The requested operation is not possible because a backup is already in progress."},
	153: {409, "Replication policy not supported", "The application isn't eligible for creating a replication policy."},
	154: {409, "Protection policy not supported", "The application isn't eligible for creating a protection policy."},
	155: {409, "Selective restore not supported", "The application isn't eligible for selective restore."},
	156: {400, "Target storage class not found", "The target storage class specified for the clone/restore operation doesn't exist on the target cluster."},
	157: {409, "Application not unmanaged", "The application wasn't unmanaged because a disruptive backup is in progress."},
	160: {400, "Valid CSI driver not found", "The supported version of Trident or CSI driver is not installed on this cluster. Install a supported version of Trident or another CSI driver and retry the request."},
	161: {409, "Clone not supported without VolumeSnapshotClass", "The cluster isn't eligible for application clones because a supported VolumeSnapshotClass isn't installed on the cluster."},
	162: {409, "Post-failover execution hooks not supported", "The application isn't eligible for post-failover execution hooks."},
	164: {409, "Requested resource in unexpected state", "The requested resource is in an unexpected state. Wait for the conflict to be resolved and retry the request."},
	165: {400, "Credential ID and relay capable connector not supported", "A credential ID can't be combined with a relay capable connector."},
	166: {401, "Unauthorized access", "The request could not be authorized."},
	168: {403, "Execution hook action not permitted", "Execution hooks are not enabled in feature settings."},
	170: {400, "Default bucket not assigned", "No bucket was given and no default bucket is assigned."},
	171: {400, "Default bucket assignment not allowed", "This cluster isn't eligible for default bucket assignment because it doesn't have the 'neptuneV1' capability."},
	175: {409, "Bucket deletion not allowed", "The bucket can't be removed while it is in use."},
	176: {409, "Snapshot name already exists", "The resource wasn't created because a snapshot with the same name already exists."},
	177: {400, "Bucket assignment for snapshot not allowed", "This snapshot isn't eligible for bucket assignment because the associated cluster doesn't have the 'neptuneV1' capability."},
}

// fieldReason names one invalid field or parameter with the reason, as invalidFields and
// invalidParams carry them.
type fieldReason struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// apiProblem is an RFC 7807 problem document as Astra Control answers it.
type apiProblem struct {
	Type                    string        `json:"type"`
	Title                   string        `json:"title"`
	Detail                  string        `json:"detail"`
	Description             string        `json:"description,omitempty"` // 22.11 documents require it instead of detail
	Status                  string        `json:"status"`
	CorrelationID           string        `json:"correlationID,omitempty"`
	InvalidFields           []fieldReason `json:"invalidFields,omitempty"`
	InvalidParams           []fieldReason `json:"invalidParams,omitempty"`
	SchemaValidationFailure string        `json:"schemaValidationFailure,omitempty"`
	// RequiredRole and Role name, on a 403 problem 11, the role the operation needs and the
	// caller's (authorization.go): members beside the detail the documents pin.
	RequiredRole string `json:"requiredRole,omitempty"`
	Role         string `json:"role,omitempty"`
}

// StatusCode is the HTTP status the problem is sent with.
func (p *apiProblem) StatusCode() int {
	n, _ := strconv.Atoi(p.Status)
	return n
}

// problem builds catalogue problem n. Unknown numbers are a programming error.
func problem(n int) *apiProblem {
	def, ok := catalogue[n]
	if !ok {
		panic("astrasim: problem " + strconv.Itoa(n) + " is not in the catalogue")
	}
	return &apiProblem{
		Type:   problemBase + strconv.Itoa(n),
		Title:  def.title,
		Detail: def.detail,
		Status: strconv.Itoa(def.status),
	}
}

func invalidFields(n int, fields ...fieldReason) *apiProblem {
	p := problem(n)
	p.InvalidFields = fields
	return p
}

func invalidParams(n int, params ...fieldReason) *apiProblem {
	p := problem(n)
	p.InvalidParams = params
	return p
}

// problemNumber extracts N from a problem type URI, or 0.
func problemNumber(typeURI string) int {
	n, err := strconv.Atoi(strings.TrimPrefix(typeURI, problemBase))
	if err != nil || !strings.HasPrefix(typeURI, problemBase) {
		return 0
	}
	return n
}
