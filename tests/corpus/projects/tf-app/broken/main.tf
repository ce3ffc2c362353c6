resource "terraform_data" "cache" {
  input = {
    name = "cache-${var.environment}"
    size = var.cache_size
  }
}

resource "terraform_data" "queue" {
  input = {
    name = "queue"
    depends = terraform_data.missing.id
  }
}
