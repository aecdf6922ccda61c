# Terraform 1.14 and later: `terraform query` lists an app's protection policies, with
# their state (include_resource), to import them by their identity { app_id, id }.
# Without app_id, it lists the policies of every app.
list "astra_protection_policy" "web" {
  provider         = astra
  include_resource = true
  config {
    app_id = "0f7c3e2a-5b1d-4c8e-9a6f-2d4b8e1c7a3f"
  }
}
