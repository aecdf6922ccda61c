variable "source_app_id" {
  description = "ID of the production app to clone (an astra_app's id, or the astra_apps data source)."
  type        = string
}

variable "staging_cluster_id" {
  description = "ID of the managed cluster the clone runs on (an astra_managed_cluster's id); it may be the production app's own cluster."
  type        = string
}

variable "namespace_mapping" {
  description = "Each namespace of the production app and the staging namespace it becomes. A staging namespace must not exist yet: Astra Control creates it."
  type        = map(string)
  default     = { default = "staging" }
}

variable "staging_app_name" {
  description = "Name of the staging app."
  type        = string
  default     = "staging"
}
