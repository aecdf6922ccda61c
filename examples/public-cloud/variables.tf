variable "cloud_type" {
  description = "The public cloud that holds the cluster: gcp, azure or aws."
  type        = string
  default     = "gcp"
}

variable "cluster_name" {
  description = "Name of the Kubernetes cluster as Astra Control discovered it."
  type        = string
  default     = "gke-prod"
}
