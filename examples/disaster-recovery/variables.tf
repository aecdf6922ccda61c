variable "production_cluster_id" {
  description = "ID of the managed cluster the app runs on (an astra_managed_cluster's id)."
  type        = string
}

variable "dr_cluster_id" {
  description = "ID of the managed cluster the app is replicated to, on ONTAP storage like production's."
  type        = string
}

variable "app_name" {
  description = "Name of the app."
  type        = string
  default     = "web"
}

variable "namespaces" {
  description = "The app's namespaces; the replica uses the same names on the disaster-recovery cluster."
  type        = list(string)
  default     = ["default"]
}
