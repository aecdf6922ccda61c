variable "cloud_name" {
  description = "Name of the Astra Control cloud whose clusters are adopted (clusters added with a kubeconfig or through an Astra Connector are in the private cloud)."
  type        = string
  default     = "private"
}
