#!/usr/bin/env bash
# test.sh runs the editor integration tests: the VS Code extension (grammar
# JSON freshness, TextMate grammar tests, unit tests, .vsix packaging) and the
# Neovim runtime files (syntax/ftdetect/ftplugin, and the LSP client against
# a stand-in server). It installs nothing system-wide: node/npm and nvim must
# already be on PATH; it runs `npm ci` inside editors/vscode unless
# SKIP_NPM_CI=1. Outside CI a missing tool skips its checks; with CI set it
# fails. The last line is "editors: N passed, M failed, K skipped".
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
passed=0
failed=0
skipped=0

# skip_or_fail TOOL: outside CI a missing tool skips its checks (loudly);
# with CI set it is a failure, because CI installs every tool.
skip_or_fail() {
  if [ -n "${CI:-}" ]; then
    echo "--- $1 is required in CI but not installed: FAILED"
    failed=$((failed + 1))
  else
    echo "--- SKIP: $1 not installed (apt-get install -y neovim / nodejs npm, or run .ci/run)"
    skipped=$((skipped + 1))
  fi
}

# step NAME CMD... runs one check and counts it.
step() {
  local name="$1"
  shift
  echo "--- ${name}"
  if "$@"; then
    passed=$((passed + 1))
    echo "--- ${name}: ok"
  else
    failed=$((failed + 1))
    echo "--- ${name}: FAILED"
  fi
}

# need CMD reports whether a command is available.
need() {
  if ! command -v "$1" >/dev/null 2>&1; then
    echo "$1 not found on PATH" >&2
    return 1
  fi
}

vscode() {
  (cd "${here}/vscode" && npm run --silent "$1")
}

npm_ci() {
  if [ "${SKIP_NPM_CI:-0}" = "1" ] && [ -d "${here}/vscode/node_modules" ]; then
    echo "skipping npm ci (SKIP_NPM_CI=1)"
    return 0
  fi
  (cd "${here}/vscode" && npm ci --no-audit --no-fund)
}

nvim_spec() {
  need nvim || return 1
  (cd "${here}/.." && timeout 60 nvim --headless --clean -n -u NONE \
    -c "luafile editors/nvim/test/$1" </dev/null)
}

if need node && need npm; then
  step "vscode: npm ci" npm_ci
  step "vscode: grammar json is generated" vscode test:grammar-json
  step "vscode: grammar tests" vscode test:grammar
  step "vscode: unit tests" vscode test:unit
  step "vscode: vsce package" vscode test:package
else
  skip_or_fail node
fi
if command -v nvim >/dev/null 2>&1; then
  step "nvim: syntax" nvim_spec syntax_spec.lua
  step "nvim: lsp client" nvim_spec lsp_spec.lua
else
  skip_or_fail nvim
fi

echo "editors: ${passed} passed, ${failed} failed, ${skipped} skipped"
[ "${failed}" -eq 0 ]
