variable "cluster_id" {
  description = "The managed cluster whose apps are all rendered (its astra_managed_cluster ID). Set this or app_id."
  type        = string
  default     = null
}

variable "app_id" {
  description = "One app to render instead of a whole cluster (its astra_app ID). Set this or cluster_id."
  type        = string
  default     = null
}

variable "protect_namespace" {
  description = "The namespace Trident protect is installed in; the AppVaults and their Secrets go there."
  type        = string
  default     = "trident-protect"
}

variable "data_mover_password_secret" {
  description = "Name of the Secret holding KOPIA_PASSWORD and RESTIC_PASSWORD, the backup repositories' passwords; null for Trident protect's default password."
  type        = string
  default     = null
}

variable "gcp_project_ids" {
  description = "The Google Cloud project of each Google Cloud Storage bucket, by Astra Control bucket ID (Astra Control does not record it; required for each one rendered)."
  type        = map(string)
  default     = {}
}

variable "azure_endpoints" {
  description = "The storage endpoint suffix of each Azure bucket outside Azure's public cloud, by Astra Control bucket ID (default core.windows.net)."
  type        = map(string)
  default     = {}
}
