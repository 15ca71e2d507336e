#!/usr/bin/env bash
# Builds the skillc container image with buildah (daemonless, nothing
# pulled: FROM scratch) holding skillc and skillc-host (the runtime host
# skillc serve runs) and, unless SMOKE=0, runs them inside it.
#
#   VERSION   version stamped into the binary and the image label/tag
#             (default: git describe --tags --always --dirty)
#   IMAGE     image name (default: skillc); the tag is VERSION
#   BUILDAH_STORAGE_DRIVER  buildah storage driver (default: vfs, which
#             works in unprivileged containers; overlay is faster where
#             the kernel allows it)
#   BUILDAH_ISOLATION       buildah's own variable (default here: chroot)
#   SMOKE     1 (default): run `skillc --version`, `skillc check`,
#             `skillc-host --version` and `skillc serve --help` in the
#             built image and check what they print
#
# Used by `make image`; .ci/run calls it when buildah works on the
# machine. See docs/ci.md#container-image.
set -euo pipefail
cd "$(dirname "$0")/../../.."

VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}"
IMAGE="${IMAGE:-skillc}"
SMOKE="${SMOKE:-1}"
export BUILDAH_ISOLATION="${BUILDAH_ISOLATION:-chroot}"
bah() { buildah --storage-driver "${BUILDAH_STORAGE_DRIVER:-vfs}" "$@"; }

start=$(date +%s)
ctx="$(mktemp -d)"
ctr=""
cleanup() {
  if [ -n "$ctr" ]; then bah rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$ctx"
}
trap cleanup EXIT

echo "== image: static skillc and skillc-host $VERSION"
# The same flags as the release binaries (internal/tools/release), so the
# Go build cache of one serves the other.
for bin in skillc skillc-host; do
  CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs,grpcnotrace -ldflags "-s -w -X main.stampedVersion=$VERSION" -o "$ctx/$bin" "./cmd/$bin"
done
cp LICENSE "$ctx/LICENSE"
mkdir -p "$ctx/rootfs/tmp" "$ctx/rootfs/etc/ssl/certs" "$ctx/rootfs/work"
chmod 1777 "$ctx/rootfs/tmp"
chmod 0777 "$ctx/rootfs/work"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$ctx/rootfs/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' >"$ctx/rootfs/etc/group"
# The zone database: cron triggers take IANA zones (internal/host/trigger).
if [ -d /usr/share/zoneinfo ]; then
  mkdir -p "$ctx/rootfs/usr/share"
  cp -r /usr/share/zoneinfo "$ctx/rootfs/usr/share/zoneinfo"
else
  echo "image: no /usr/share/zoneinfo here; only UTC and fixed offsets will work in the image" >&2
fi
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/rootfs/etc/ssl/certs/"
else
  echo "image: no /etc/ssl/certs/ca-certificates.crt here; the image has no CA bundle" >&2
fi

echo "== image: buildah bud $IMAGE:$VERSION"
bah bud --quiet --layers=false --build-arg "VERSION=$VERSION" -f Containerfile -t "$IMAGE:$VERSION" "$ctx" >/dev/null
bah images --format '{{.Name}}:{{.Tag}} {{.Size}}' "$IMAGE:$VERSION"

if [ "$SMOKE" = "1" ]; then
  echo "== image: smoke test"
  ctr="$(bah from "$IMAGE:$VERSION")"
  got="$(bah run "$ctr" -- /usr/local/bin/skillc --version)"
  echo "$got"
  case "$got" in
    "skillc $VERSION "*) ;;
    *) echo "image: --version prints '$got', want 'skillc $VERSION ...'" >&2; exit 1 ;;
  esac
  got="$(bah run "$ctr" -- /usr/local/bin/skillc-host --version)"
  echo "$got"
  case "$got" in
    "skillc-host $VERSION "*) ;;
    *) echo "image: skillc-host --version prints '$got', want 'skillc-host $VERSION ...'" >&2; exit 1 ;;
  esac
  # skillc serve runs the skillc-host beside skillc
  if ! bah run "$ctr" -- /usr/local/bin/skillc serve --help | grep -q -- '--otel-endpoint'; then
    echo "image: skillc serve --help does not print skillc-host's serve flags" >&2
    exit 1
  fi
  echo "skillc serve --help: run by skillc-host"
  bah copy --chown 65532:65532 "$ctr" testdata/examples/hello.skill.md /work/hello.skill.md >/dev/null
  bah run "$ctr" -- /usr/local/bin/skillc check /work/hello.skill.md
  printf '# Skill: broken\n# Description: Use when testing the image.\n\nmain:\n    emit(text="${MISSING}")\n\ndefault: main\n' >"$ctx/broken.skill.md"
  bah copy --chown 65532:65532 "$ctr" "$ctx/broken.skill.md" /work/broken.skill.md >/dev/null
  set +e
  out="$(bah run "$ctr" -- /usr/local/bin/skillc check --color never /work/broken.skill.md 2>&1)"
  rc=$?
  set -e
  if [ "$rc" != 1 ] || ! grep -q 'undeclared-var' <<<"$out"; then
    echo "image: skillc check of a broken skill exited $rc, want 1 with undeclared-var:" >&2
    echo "$out" >&2
    exit 1
  fi
  echo "broken skill: exit 1, undeclared-var reported"
  mnt="$(bah mount "$ctr")"
  head -1 "$mnt/usr/share/doc/skillc/LICENSE"
  if [ -d /usr/share/zoneinfo ]; then
    test -f "$mnt/usr/share/zoneinfo/Europe/Paris" || { echo "image: no zone database" >&2; exit 1; }
  fi
  bah umount "$ctr" >/dev/null
  user="$(bah inspect --format '{{.OCIv1.Config.User}}' "$IMAGE:$VERSION")"
  [ "$user" = "65532:65532" ] || { echo "image: user is '$user', want 65532:65532" >&2; exit 1; }
fi
echo "== image: $IMAGE:$VERSION built in $(($(date +%s) - start)) s"
