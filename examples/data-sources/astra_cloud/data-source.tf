# The private cloud, which clusters added with a kubeconfig belong to.
data "astra_cloud" "private" {
  name = "private"
}

# A cloud by ID.
data "astra_cloud" "gcp" {
  id = "0c8b4e1a-6a4d-4f53-9b6e-2f3a1c5d7e90"
}
