variable "managed_cluster_id" {
  description = "ID of the managed cluster PostgreSQL runs on (an astra_managed_cluster's id)."
  type        = string
}

variable "namespace" {
  description = "Namespace of the PostgreSQL workload."
  type        = string
  default     = "postgres"
}

variable "label_selector" {
  description = "Label selector of the PostgreSQL workload's resources in that namespace."
  type        = string
  default     = "app=postgres"
}

variable "app_name" {
  description = "Name of the app in Astra Control; the hook source and hooks are named after it."
  type        = string
  default     = "postgres"
}

variable "container_name" {
  description = "Name of the PostgreSQL container in its pods: the hooks run there only."
  type        = string
  default     = "postgres"
}

variable "bucket_id" {
  description = "ID of the bucket the policy's backups go to; null lets Astra Control choose (the cluster's or cloud's default bucket)."
  type        = string
  default     = null
}

variable "hook_script_path" {
  description = "Path of the hook script; defaults to scripts/postgres-snapshot-hook.sh beside this configuration."
  type        = string
  default     = null
}
