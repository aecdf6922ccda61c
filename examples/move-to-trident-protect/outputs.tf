# The rendering is sensitive: an ExecHook carries its hook source's script. These outputs
# say so, and print (sensitive value); `terraform output -raw trident_protect_yaml > file`
# writes the YAML without printing it.
output "trident_protect_yaml" {
  description = "Every Trident protect resource, as one YAML stream: `terraform output -raw trident_protect_yaml > trident-protect.yaml`."
  value       = data.astra_trident_protect_manifests.estate.yaml
  sensitive   = true
}

output "trident_protect_files" {
  description = "Each resource's YAML by its key (kind.namespace.name), for one file per resource."
  value       = { for m in data.astra_trident_protect_manifests.estate.manifests : "${m.key}.yaml" => m.yaml }
  sensitive   = true
}

output "trident_protect_objects" {
  description = "Each resource as an object for kubernetes_manifest, by key."
  value       = data.astra_trident_protect_manifests.estate.objects
  sensitive   = true
}

output "trident_protect_secrets" {
  description = "The Secrets to create in Trident protect's namespace before applying: names and keys, never a value."
  value = {
    for s in data.astra_trident_protect_manifests.estate.secrets : s.name => {
      namespace  = s.namespace
      keys       = s.keys
      purpose    = s.purpose
      bucket     = s.bucket_name
      credential = s.credential_name
    }
  }
}

output "trident_protect_warnings" {
  description = "What does not carry over as it is, each naming the Astra Control object."
  value       = [for w in data.astra_trident_protect_manifests.estate.warnings : "${w.object}: ${w.message}"]
}

output "trident_protect_release" {
  description = "The Trident protect release whose documentation the mapping follows."
  value       = data.astra_trident_protect_manifests.estate.trident_protect_release
}
