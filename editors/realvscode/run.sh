#!/usr/bin/env bash
# run.sh tests the packaged VS Code extension in a real VS Code: code-server
# 4.96.4 (installed from npm into a cache, see install-code-server.sh) in
# Debian's chromium driven by puppeteer-core, with `skillc lsp` and a real
# MCP server process (the test server of eval/substrate/mcp) behind it.
# Screenshots go to docs/editors/. Needs: go, node 20, npm, chromium
# (apt-get install chromium), a C toolchain for the first install.
#
#   editors/realvscode/run.sh            # CODE_SERVER_DIR caches the install
#
# The first run installs code-server (a few minutes); later runs take two
# to three minutes (the last checks run a debug session under skillc dap).
# CI (.ci/run) runs it on every run unless SKILLC_REAL_EDITORS=0 (see
# docs/editors.md).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${CODE_SERVER_DIR:-$HOME/.cache/skillc-code-server}"
port="${PORT:-18080}"
work="$(mktemp -d)"
cleanup() {
  [ -n "${cs_pid:-}" ] && kill "$cs_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$here/install-code-server.sh" "$cache"
(cd "$here" && npm install --no-audit --no-fund >/dev/null)
(cd "$repo" && go build -o "$work/bin/skillc" ./cmd/skillc && go build -o "$work/bin/mcptestserver" ./eval/substrate/mcp/internal/testserver/cmd/mcptestserver)
(cd "$repo/editors/vscode" && npm ci --no-audit --no-fund >/dev/null && npx vsce package --out "$work/skillscript.vsix" >/dev/null)

ws="$work/ws"
mkdir -p "$ws" "$work/data/User" "$work/home"
cp -r "$here/workspace/"*.skill.md "$here/workspace/.vscode" "$ws/"
printf '{"srv": {"class": "RemoteMcpConnector", "config": {"command": "%s", "framing": "newline"}}}\n' "$work/bin/mcptestserver" > "$ws/connectors.json"
printf '{"skillc.path": "%s", "skillc.skillscriptHome": "%s", "security.workspace.trust.enabled": false, "workbench.startupEditor": "none"}\n' "$work/bin/skillc" "$work/home" > "$work/data/User/settings.json"
# skillc.path and skillc.skillscriptHome are machine-scoped: code-server
# is a remote window, where VS Code takes them from the remote (Machine)
# settings. The User copy is read only until the remote settings load, which
# (seen here) can happen as late as the first debug session: the language
# client was then restarted with the default "skillc" (spawn ENOENT).
mkdir -p "$work/data/Machine"
printf '{"skillc.path": "%s", "skillc.skillscriptHome": "%s"}\n' "$work/bin/skillc" "$work/home" > "$work/data/Machine/settings.json"

cs="$cache/node_modules/.bin/code-server"
"$cs" --user-data-dir "$work/data" --extensions-dir "$work/ext" --install-extension "$work/skillscript.vsix"
"$cs" --auth none --bind-addr "127.0.0.1:$port" --user-data-dir "$work/data" --extensions-dir "$work/ext" \
  --disable-telemetry --disable-update-check "$ws" >"$work/code-server.log" 2>&1 &
cs_pid=$!
for _ in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 1
done
rc=0
node "$here/driver.js" "http://127.0.0.1:$port" "$ws" "$repo/docs/editors" || rc=$?
if [ "$rc" != 0 ]; then
  # the extension host's and code-server's logs say why a check failed
  # (an extension that did not activate, a debug adapter that did not start)
  find "$work/data/logs" -name '*.log' 2>/dev/null | while read -r f; do
    echo "--- ${f#"$work/data/logs/"}"; tail -n 40 "$f"
  done
  echo "--- code-server.log"; tail -n 40 "$work/code-server.log"
fi
exit "$rc"
