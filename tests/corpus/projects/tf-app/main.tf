# A deployment description with no provider to download: terraform_data is built in.
variable "environment" {
  type    = string
  default = "staging"
}

variable "replicas" {
  type    = number
  default = 3
}

resource "terraform_data" "database" {
  input = {
    name    = "inventory-${var.environment}"
    engine  = "postgres"
    version = "15"
  }
}

resource "terraform_data" "app" {
  count = var.replicas
  input = {
    name     = "inventory-app-${count.index}"
    database = terraform_data.database.output.name
    port     = 8000 + count.index
  }
}

output "app_names" {
  value = [for a in terraform_data.app : a.output.name]
}
