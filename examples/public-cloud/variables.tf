variable "cloud_type" {
  description = "The public cloud: gcp, azure or aws."
  type        = string
  default     = "gcp"
}

variable "cloud_name" {
  description = "Name of the cloud in Astra Control (unique in the account)."
  type        = string
  default     = "gcp-backups"
}

variable "service_account_file" {
  description = "Path of the service account's JSON key file (for gcp, the key file of a service account)."
  type        = string
}

variable "cluster_name" {
  description = "Name of the Kubernetes cluster as Astra Control discovered it."
  type        = string
  default     = "gke-prod"
}
