variable "kubeconfig_path" {
  description = "Path of the kubeconfig of the cluster to register (one cluster, one context). Defaults to kubeconfig.yaml beside this configuration."
  type        = string
  default     = null
}

variable "cluster_name" {
  description = "Name of the cluster (and of its credential) in Astra Control."
  type        = string
  default     = "complete-example"
}

variable "storage_class_name" {
  description = "Kubernetes name of the storage class Astra Control makes the cluster's default; null keeps the cluster's own default."
  type        = string
  default     = null
}

variable "labels" {
  description = "Labels put on the cluster in Astra Control."
  type        = map(string)
  default     = { managed-by = "terraform" }
}

variable "s3_provider" {
  description = "The S3 service of the backup bucket: ontap-s3, storagegrid-s3, generic-s3 or aws."
  type        = string
  default     = "generic-s3"
}

variable "s3_server_url" {
  description = "The S3 endpoint of the backup bucket: a host (s3.example.com) or an http(s) URL."
  type        = string
  default     = "s3.example.com"
}

variable "s3_bucket_name" {
  description = "Name of the backup bucket in the object store."
  type        = string
  default     = "astra-backups"
}

variable "s3_access_key_id" {
  description = "Access key ID of the key pair Astra Control opens the bucket with. The default is a placeholder the simulator accepts."
  type        = string
  sensitive   = true
  default     = "AKIAIOSFODNN7EXAMPLE"
}

variable "s3_secret_access_key" {
  description = "Secret of that key pair. The default is a placeholder the simulator accepts; set the real one (TF_VAR_s3_secret_access_key) for a real object store."
  type        = string
  sensitive   = true
  default     = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
}

variable "app_name" {
  description = "Name of the app Astra Control protects (a Kubernetes name)."
  type        = string
  default     = "complete-example"
}

variable "protected_namespace" {
  description = "The cluster's namespace the app protects."
  type        = string
  default     = "default"
}

variable "baseline_backup" {
  description = "Take a baseline backup of the app now (astra_app_backup), which makes it fully protected. Without it the app stays partially protected until its daily policy's first backup."
  type        = bool
  default     = true
}

variable "delete_backups_on_destroy" {
  description = "Whether destroy deletes all the app's backups (those its daily policy took too) before it unmanages the app. Astra Control's REST API keeps an unmanaged app's backups, and the bucket holding them cannot then be destroyed: set false to keep them, and delete them yourself before destroying the bucket."
  type        = bool
  default     = true
}
