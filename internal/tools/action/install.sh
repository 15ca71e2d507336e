#!/usr/bin/env bash
# install.sh installs skillc for the GitHub Action (action.yml): the
# release archive for this runner's OS and architecture, verified against
# the release's checksums.txt; when the release has no such archive (or
# cannot be reached) it builds skillc from the Action's own source with Go.
# A checksum that does not match is an error, never a reason to fall back.
#
# Environment:
#   SKILLC_VERSION      a tag (v1.2.3) or "latest"                 (latest)
#   SKILLC_RELEASE_URL  where releases live             (https://github.com/skillscript/skillc/releases)
#   SKILLC_SOURCE_DIR   the Action's checkout, for the fallback build
#   SKILLC_INSTALL_DIR  where the binary goes   ($RUNNER_TEMP/skillc/bin)
#   GITHUB_PATH         the runner's PATH file; the install dir is appended
set -euo pipefail

version="${SKILLC_VERSION:-latest}"
base="${SKILLC_RELEASE_URL:-https://github.com/skillscript/skillc/releases}"
dest="${SKILLC_INSTALL_DIR:-${RUNNER_TEMP:-/tmp}/skillc/bin}"
mkdir -p "$dest"

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=darwin ;;
  MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) echo "skillc install: unsupported OS $(uname -s)" >&2; exit 1 ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch=amd64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "skillc install: unsupported architecture $(uname -m)" >&2; exit 1 ;;
esac
ext=tar.gz
exe=skillc
if [ "$os" = windows ]; then ext=zip; exe=skillc.exe; fi
asset="skillc_${os}_${arch}.${ext}"
if [ "$version" = latest ]; then
  url="$base/latest/download"
else
  url="$base/download/$version"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fallback() {
  echo "skillc install: $1; building skillc from the Action's source instead" >&2
  src="${SKILLC_SOURCE_DIR:-}"
  if [ -z "$src" ] || [ ! -f "$src/go.mod" ] || ! command -v go >/dev/null 2>&1; then
    echo "skillc install: cannot build from source: set go-version (Go is needed) or use a released version" >&2
    exit 1
  fi
  (cd "$src" && go build -o "$dest/$exe" ./cmd/skillc)
  finish
}

finish() {
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dest" >> "$GITHUB_PATH"; fi
  "$dest/$exe" --version
  exit 0
}

if ! curl -fsSL --retry 2 -o "$work/$asset" "$url/$asset" 2>"$work/err"; then
  fallback "no release archive $asset at $url ($(tr -d '\n' < "$work/err"))"
fi
if ! curl -fsSL --retry 2 -o "$work/checksums.txt" "$url/checksums.txt" 2>"$work/err"; then
  echo "skillc install: $url/checksums.txt is missing: refusing an unverified archive" >&2
  exit 1
fi
want="$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1 }' "$work/checksums.txt")"
if [ -z "$want" ]; then
  echo "skillc install: checksums.txt has no line for $asset: refusing an unverified archive" >&2
  exit 1
fi
if command -v sha256sum >/dev/null 2>&1; then
  got="$(sha256sum "$work/$asset" | awk '{print $1}')"
else
  got="$(shasum -a 256 "$work/$asset" | awk '{print $1}')"
fi
if [ "$got" != "$want" ]; then
  echo "skillc install: checksum mismatch for $asset: checksums.txt says $want, the download is $got" >&2
  exit 1
fi
if [ "$ext" = zip ]; then
  unzip -q -o "$work/$asset" -d "$work/x"
else
  mkdir -p "$work/x" && tar -xzf "$work/$asset" -C "$work/x"
fi
found="$(find "$work/x" -type f -name "$exe" | head -n 1)"
if [ -z "$found" ]; then
  echo "skillc install: $asset holds no $exe" >&2
  exit 1
fi
install -m 0755 "$found" "$dest/$exe"
finish
