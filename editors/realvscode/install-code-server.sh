#!/usr/bin/env bash
# install-code-server.sh DIR installs code-server 4.96.4 (the last release
# running on Node 20) into DIR from the npm registry only, with the
# work-arounds that make it install offline from GitHub (see
# docs/editors.md). It is idempotent: an existing DIR/.ok skips it.
# Needs: node 20, npm, a C/C++ toolchain and python3 (node-gyp).
set -euo pipefail
dir="${1:?usage: install-code-server.sh DIR}"
if [ -f "$dir/.ok" ]; then
  echo "code-server already installed in $dir"
  exit 0
fi
mkdir -p "$dir"
cd "$dir"
export npm_config_unsafe_perm=true
[ -f package.json ] || echo '{"name":"cs-host","private":true}' > package.json
npm install --no-audit --no-fund --ignore-scripts code-server@4.96.4
cs="$dir/node_modules/code-server"
# VS Code's own dependencies: its shrinkwrap pins a GitHub tarball, so
# resolve from the registry instead.
cd "$cs/lib/vscode"
[ -f npm-shrinkwrap.json ] && mv npm-shrinkwrap.json npm-shrinkwrap.json.off
npm install --no-audit --no-fund --omit=dev --ignore-scripts
# native modules, built against the local Node headers
for m in @vscode/spdlog node-pty @parcel/watcher native-watchdog @vscode/deviceid; do
  if [ -d "node_modules/$m" ]; then
    (cd "node_modules/$m" && npx --yes node-gyp rebuild >/dev/null 2>&1) || echo "warning: $m did not build"
  fi
done
(cd extensions && npm install --no-audit --no-fund --omit=dev --ignore-scripts) || true
[ -e node_modules.asar ] || ln -s node_modules node_modules.asar
# code-server's own native module (its prebuilt binary is on GitHub); npm
# may hoist it next to code-server
for a in "$cs/node_modules/argon2" "$dir/node_modules/argon2"; do
  if [ -d "$a" ]; then
    (cd "$a" && npx --yes node-gyp rebuild --module_name=argon2 --module_path=lib/binding/napi-v3 --napi_build_version=3 >/dev/null 2>&1 &&
      mkdir -p lib/binding/napi-v3 && cp build/Release/argon2.node lib/binding/napi-v3/) || { echo "argon2 did not build" >&2; exit 1; }
  fi
done
touch "$dir/.ok"
echo "code-server installed in $dir"
