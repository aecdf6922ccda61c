package provider

// The resources whose configuration checks (ValidateConfig, schema validators, Configure)
// only read the request, so the known answers may run them in place of the framework
// (knownanswers.PureValidator). Declare a new resource here once its checks are pure: until
// then its validation goes to the framework, and the differential test covers it either way.

func (*clusterResource) ValidatesPurely()                  {}
func (*kubeconfigCredentialResource) ValidatesPurely()     {}
func (*managedClusterResource) ValidatesPurely()           {}
func (*cloudResource) ValidatesPurely()                    {}
func (*s3CredentialResource) ValidatesPurely()             {}
func (*serviceAccountCredentialResource) ValidatesPurely() {}
func (*bucketResource) ValidatesPurely()                   {}
func (*appResource) ValidatesPurely()                      {}
func (*protectionPolicyResource) ValidatesPurely()         {}
func (*hookSourceResource) ValidatesPurely()               {}
func (*executionHookResource) ValidatesPurely()            {}
func (*appSnapshotResource) ValidatesPurely()              {}
func (*appBackupResource) ValidatesPurely()                {}
