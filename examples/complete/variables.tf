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
