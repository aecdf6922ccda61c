# A token for this run only (Terraform 1.10+, OpenTofu 1.11+): created when the run needs
# it, deleted when the run ends, never in state or plan. Name it after the run, so a run
# killed before it could delete its token leaves one that says which run it was.
ephemeral "astra_api_token" "ci" {
  name    = "ci-${var.pipeline_id}"
  user_id = var.ci_user_id
}

# Another configuration of the provider acting as that user.
provider "astra" {
  alias     = "ci"
  api_token = ephemeral.astra_api_token.ci.token
}
