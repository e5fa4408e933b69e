#!/usr/bin/env bash
# Builds the sf-database container image from ops/container/Containerfile:
#   1. `npm run build`, then `npm pack` of the tier and its three workspace packages
#      into a temporary build context (the four *.tgz the Containerfile installs);
#   2. makes sure the base image (the Containerfile's FROM) is in local storage: already
#      there, pulled, or, with no registry in reach, made from Debian's packages with
#      debootstrap and imported under the same name, so the Containerfile builds unchanged;
#   3. builds and tags the image with buildah (or podman).
#
# Usage: ops/container/build.sh
# Environment:
#   SFDB_IMAGE    the tag (default registry.example.internal/sf-database:<package.json version>,
#                 the image ops/kubernetes/*.yaml name)
#   SFDB_BUILDER  buildah or podman (default: buildah if installed, else podman)
#   SFDB_BASE     auto (default: local, else pull, else debootstrap), pull, or debootstrap
#   SFDB_MIRROR   the Debian mirror debootstrap and the image's apt use (default deb.debian.org)
#   SFDB_BUILD_CA extra CA certificates (PEM) for the build's npm install, when the registry is
#                 reached through a TLS-intercepting proxy (default: $NODE_EXTRA_CA_CERTS, if set)
#   STORAGE_DRIVER=vfs   where overlay storage is not to be had
#   BUILDAH_ISOLATION    oci or chroot (default: oci if `buildah run` works here, else chroot)
# Needs: node/npm, buildah or podman, and for SFDB_BASE=debootstrap: debootstrap (root).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CONTAINERFILE="$ROOT/ops/container/Containerfile"
VERSION="$(node -p "require('$ROOT/package.json').version")"
IMAGE="${SFDB_IMAGE:-registry.example.internal/sf-database:$VERSION}"
MIRROR="${SFDB_MIRROR:-http://deb.debian.org/debian}"
# The base image is the one the Containerfile names (both stages use the same).
BASE="$(sed -n 's/^FROM[[:space:]]\{1,\}\([^[:space:]]\{1,\}\).*/\1/p' "$CONTAINERFILE" | head -n 1)"
SUITE="${BASE##*:}"; SUITE="${SUITE%-slim}" # docker.io/library/debian:trixie-slim -> trixie

if [[ -n "${SFDB_BUILDER:-}" ]]; then BUILDER="$SFDB_BUILDER"
elif command -v buildah >/dev/null; then BUILDER=buildah
elif command -v podman >/dev/null; then BUILDER=podman
else echo "build.sh: needs buildah or podman (apt-get install buildah)" >&2; exit 2
fi

CONTEXT="$(mktemp -d "${TMPDIR:-/tmp}/sf-database-image.XXXXXX")"
PROBE=
trap 'rm -rf "$CONTEXT"; if [[ -n "$PROBE" ]]; then buildah rm "$PROBE" >/dev/null; fi' EXIT

step() { printf '\n== [%ss] %s\n' "$SECONDS" "$*" >&2; }

# 1. The four tarballs.
step "npm run build and npm pack into $CONTEXT"
(cd "$ROOT" && npm run --silent build)
(cd "$ROOT" && npm pack --silent --pack-destination "$CONTEXT" >/dev/null)
(cd "$ROOT" && npm pack --silent -w proto -w client -w daemons --pack-destination "$CONTEXT" >/dev/null)
ls -1 "$CONTEXT"
[[ "$(find "$CONTEXT" -maxdepth 1 -name '*.tgz' | wc -l)" -eq 4 ]] || { echo "build.sh: expected 4 tarballs in $CONTEXT" >&2; exit 1; }

# The build stage's extra CAs (an empty build-ca/ when there are none).
mkdir "$CONTEXT/build-ca"
BUILD_CA="${SFDB_BUILD_CA:-${NODE_EXTRA_CA_CERTS:-}}"
if [[ -n "$BUILD_CA" ]]; then cp "$BUILD_CA" "$CONTEXT/build-ca/ca.pem"; fi

# 2. The base image.
have_base() { "$BUILDER" inspect --type image "$BASE" >/dev/null 2>&1; }

# A Debian rootfs from debootstrap, slimmed the way the official -slim images are
# (no docs, man pages or locales; empty apt lists), imported as $BASE.
debootstrap_base() {
  command -v debootstrap >/dev/null || { echo "build.sh: no registry and no debootstrap (apt-get install debootstrap)" >&2; exit 2; }
  local rootfs="$CONTEXT/rootfs"
  step "debootstrap --variant=minbase $SUITE from $MIRROR"
  debootstrap --variant=minbase "$SUITE" "$rootfs" "$MIRROR" >"$CONTEXT/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CONTEXT/debootstrap.log" >&2; exit 1; }
  # apt inside the image: the suite, its updates and its security fixes.
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${MIRROR%/debian}/debian-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  # What later apt-get installs leave out, as in the official -slim images.
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/docker" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOF
  printf 'APT::Install-Recommends "false";\n' >"$rootfs/etc/apt/apt.conf.d/docker-no-recommends"
  find "$rootfs/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{man,info,locale,lintian}/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb \
    "$rootfs"/var/log/*.log "$rootfs"/var/log/apt/* "$rootfs"/tmp/* "$rootfs"/root/.cache
  : >"$rootfs/etc/machine-id"
  step "import the rootfs as $BASE"
  if [[ "$BUILDER" = podman ]]; then
    tar -C "$rootfs" --numeric-owner -c . | podman import --change 'CMD ["bash"]' - "$BASE" >/dev/null
  else
    local ctr mnt
    ctr="$(buildah from scratch)"
    mnt="$(buildah mount "$ctr")"
    tar -C "$rootfs" --numeric-owner -c . | tar -C "$mnt" --numeric-owner -xp
    buildah umount "$ctr" >/dev/null
    buildah config --cmd '["bash"]' --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$ctr"
    buildah commit --quiet --rm "$ctr" "$BASE" >/dev/null
  fi
  rm -rf "$rootfs" "$CONTEXT/debootstrap.log"
}

case "${SFDB_BASE:-auto}" in
  auto)
    if have_base; then step "base image $BASE: in local storage"
    elif step "pull $BASE" && "$BUILDER" pull --quiet "$BASE" >/dev/null; then :
    else debootstrap_base
    fi ;;
  pull) "$BUILDER" pull --quiet "$BASE" >/dev/null ;;
  debootstrap) debootstrap_base ;;
  *) echo "build.sh: SFDB_BASE is auto, pull or debootstrap, not ${SFDB_BASE}" >&2; exit 2 ;;
esac

# buildah's default isolation (an OCI runtime: crun or runc) needs cgroups it can use; where
# it cannot (e.g. "cgroups in hybrid mode not supported"), RUN steps run under chroot.
if [[ "$BUILDER" = buildah && -z "${BUILDAH_ISOLATION:-}" ]]; then
  PROBE="$(buildah from --pull=false --quiet "$BASE")"
  if ! buildah run "$PROBE" -- true 2>"$CONTEXT/probe.err"; then
    echo "build.sh: buildah run failed ($(grep -v '^$' "$CONTEXT/probe.err" | head -n 1)); using BUILDAH_ISOLATION=chroot" >&2
    export BUILDAH_ISOLATION=chroot
  fi
  buildah rm "$PROBE" >/dev/null; PROBE=
fi

# 3. The image. --pull=false: the base from local storage when it is there (it now is).
step "$BUILDER build -t $IMAGE"
"$BUILDER" build --pull=false --network host -f "$CONTAINERFILE" -t "$IMAGE" "$CONTEXT"
step "built $IMAGE"
"$BUILDER" images "$IMAGE"
