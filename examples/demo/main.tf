# The configuration `make demo` applies against the Astra Control simulator.
# The provider reads the simulator's address and credentials from the ASTRA_*
# variables that scripts/demo.sh exports.
terraform {
  required_providers {
    astra = {
      source = "astra-control/astra"
    }
  }
}

provider "astra" {}

output "message" {
  value = "The astra provider is installed and configured."
}
