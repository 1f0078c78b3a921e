#!/usr/bin/env bash
# Fails when the committed libs/contracts differs from what proto/ generates.
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run -s generate
if ! git diff --quiet -- libs/contracts || [ -n "$(git ls-files --others --exclude-standard libs/contracts)" ]; then
  echo "libs/contracts is out of date with proto/: run 'npm run generate' and commit." >&2
  git status --short libs/contracts >&2
  exit 1
fi
echo "contracts: no drift"
