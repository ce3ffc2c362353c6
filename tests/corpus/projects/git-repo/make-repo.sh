#!/usr/bin/env bash
# Builds a small git repository with a deterministic history (fixed authors and
# dates, so commit hashes are stable), a feature branch, a conflicting branch
# and a bare "origin" remote. Usage: make-repo.sh DEST_DIR
set -euo pipefail
dest=$1
rm -rf "$dest"
mkdir -p "$dest"
cd "$dest"

export GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Ada Lovelace" GIT_AUTHOR_EMAIL="ada@example.com"
export GIT_COMMITTER_NAME="Ada Lovelace" GIT_COMMITTER_EMAIL="ada@example.com"
t=1700000000
commit() { # commit MESSAGE [AUTHOR]
  t=$((t + 3600))
  export GIT_AUTHOR_DATE="@$t +0100" GIT_COMMITTER_DATE="@$t +0100"
  if [ $# -gt 1 ]; then
    GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$(echo "$2" | tr 'A-Z ' 'a-z.')@example.com" git commit -q -m "$1"
  else
    git commit -q -m "$1"
  fi
}

git init -q -b main app
cd app
git config user.name "Ada Lovelace"
git config user.email "ada@example.com"
mkdir -p src tests docs
cat > README.md <<'MD'
# inventory-service

Keeps track of stock levels.

## Usage

    python -m inventory serve --port 8080
MD
cat > src/inventory.py <<'PY'
class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, name, qty):
        self.items[name] = self.items.get(name, 0) + qty

    def remove(self, name, qty):
        self.items[name] -= qty

    def total(self):
        return sum(self.items.values())
PY
cat > src/server.py <<'PY'
import http.server

PORT = 8080


def serve(port=PORT):
    handler = http.server.SimpleHTTPRequestHandler
    with http.server.HTTPServer(("", port), handler) as httpd:
        httpd.serve_forever()
PY
printf '__pycache__/\n*.pyc\n.venv/\n' > .gitignore
git add -A && commit "Initial commit"

cat > tests/test_inventory.py <<'PY'
from src.inventory import Inventory


def test_add():
    inv = Inventory()
    inv.add("bolt", 2)
    assert inv.total() == 2
PY
git add -A && commit "Add inventory tests" "Grace Hopper"

cat > src/config.py <<'PY'
import os

DEFAULTS = {"port": 8080, "debug": False, "db": "sqlite:///inventory.db"}


def load():
    cfg = dict(DEFAULTS)
    if "INVENTORY_PORT" in os.environ:
        cfg["port"] = int(os.environ["INVENTORY_PORT"])
    return cfg
PY
git add -A && commit "Add configuration loader"

python3 - <<'PY'
p = "src/inventory.py"
s = open(p).read()
s = s.replace("        self.items[name] -= qty\n",
              "        if self.items.get(name, 0) < qty:\n            raise ValueError(f\"not enough {name}\")\n        self.items[name] -= qty\n")
open(p, "w").write(s)
PY
git add -A && commit "Refuse to remove more than in stock" "Grace Hopper"
git tag v0.1.0

# feature branch touching the same line as main will
git checkout -q -b feature/port-flag
sed -i 's/^PORT = 8080$/PORT = int(__import__("os").environ.get("PORT", "9000"))/' src/server.py
git add -A && commit "Read port from PORT env var" "Linus Torvalds"
cat >> docs/cli.md <<'MD'
# CLI

`--port N` overrides the listening port.
MD
git add -A && commit "Document --port" "Linus Torvalds"

git checkout -q main
sed -i 's/^PORT = 8080$/PORT = 8000/' src/server.py
sed -i 's/8080/8000/' README.md
git add -A && commit "Change default port to 8000"

git checkout -q -b bugfix/total-negative
python3 - <<'PY'
p = "src/inventory.py"
s = open(p).read()
s = s.replace("        return sum(self.items.values())\n", "        return sum(max(v, 0) for v in self.items.values())\n")
open(p, "w").write(s)
PY
git add -A && commit "Never report negative totals" "Grace Hopper"
git checkout -q main

for i in $(seq 1 12); do
  echo "- change $i" >> CHANGELOG.md
  git add -A && commit "Update changelog ($i)"
done

cd ..
git clone -q --bare app origin.git
cd app
git remote add origin ../origin.git
git fetch -q origin
git branch -q -u origin/main main
