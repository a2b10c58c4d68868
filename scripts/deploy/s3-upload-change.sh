#!/usr/bin/env bash
# Uploads one build's change to an S3 bucket: exactly the files of _build/changed.txt (as JSON), then
# deletes the files of _build/removed.txt. Used by .github/workflows/nightly.yml after npm run nightly.
#
#   scripts/deploy/s3-upload-change.sh <built folder> <bucket>[/prefix]
#
# The changed files are hard-linked into a staging folder beside the build, so one recursive copy
# uploads them in parallel with the AWS CLI's own transfer manager. Needs the AWS CLI and credentials.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <built folder> <bucket>[/prefix]" >&2
  exit 2
fi
site=$(cd "$1" && pwd -P)
target="s3://${2%/}"
for list in changed removed; do
  [ -f "$site/_build/$list.txt" ] || { echo "$1 holds no _build/$list.txt: is it a build of npm run build?" >&2; exit 1; }
done

staging=$(mktemp -d "$(dirname "$site")/.s3-upload.XXXXXX")
trap 'rm -rf "$staging"' EXIT
# GNU cp makes the folders and hard links in a few processes, not two per file (thousands a night).
(cd "$site" && { grep -v '^$' _build/changed.txt || true; } | xargs -d '\n' -r cp --parents --link --target-directory="$staging")
changed=$(grep -c -v '^$' "$site/_build/changed.txt" || true)

if [ "$changed" -gt 0 ]; then
  aws s3 cp "$staging" "$target/" --recursive --content-type application/json --only-show-errors
fi
removed=0
while IFS= read -r file; do
  [ -n "$file" ] || continue
  aws s3 rm "$target/$file" --only-show-errors
  removed=$((removed + 1))
done < "$site/_build/removed.txt"
echo "uploaded $changed file(s) to $target, deleted $removed"
