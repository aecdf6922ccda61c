terraform {
  required_version = ">= 1.5"
  required_providers {
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.20"
    }
  }
}

# The cluster the apps run on, where Trident protect is installed.
provider "kubernetes" {
  config_path = var.kubeconfig_path
}
