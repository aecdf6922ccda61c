variable "cloud_id" {
  description = "ID of the cloud whose managed clusters are protected (the astra_clouds data source lists them)."
  type        = string
}

variable "namespaces" {
  description = "The namespaces to protect on each cluster that has them."
  type        = list(string)
  default     = ["default"]
}

variable "label_selector" {
  description = "Kubernetes label selector of the resources to protect in those namespaces."
  type        = string
  default     = "tier=prod"
}

variable "app_suffix" {
  description = "Each app is named <cluster name>-<app_suffix>."
  type        = string
  default     = "prod"
}

variable "hourly_snapshots" {
  description = "How many hourly snapshots each app keeps."
  type        = number
  default     = 24
}

variable "daily_retention" {
  description = "How many daily snapshots and backups each app keeps."
  type        = number
  default     = 7
}

variable "bucket_id" {
  description = "ID of the bucket the daily backups go to; null lets Astra Control choose."
  type        = string
  default     = null
}
