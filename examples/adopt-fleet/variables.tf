variable "cloud_name" {
  description = "Name of the Astra Control cloud whose clusters are adopted (clusters added with a kubeconfig or through an Astra Connector are in the private cloud)."
  type        = string
  default     = "private"
}

variable "s3_credential_ids" {
  description = "IDs of the S3 credentials (key type s3, used by buckets) to adopt as well; none by default."
  type        = set(string)
  default     = []
}
