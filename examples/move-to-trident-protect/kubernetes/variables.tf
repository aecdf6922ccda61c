variable "kubeconfig_path" {
  description = "The kubeconfig of the cluster Trident protect is installed on."
  type        = string
  default     = "~/.kube/config"
}

variable "manifests_file" {
  description = "The reviewed rendering: `terraform output -raw trident_protect_yaml` of the parent configuration, committed."
  type        = string
  default     = "trident-protect.yaml"
}

variable "protect_namespace" {
  description = "Trident protect's namespace, where the Secrets go (the rendering's protect_namespace)."
  type        = string
  default     = "trident-protect"
}

variable "trident_protect_secrets" {
  description = "The keys and values of each Secret the parent configuration's output trident_protect_secrets lists, by Secret name."
  type        = map(map(string))
  sensitive   = true
}
