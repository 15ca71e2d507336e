'use strict';

// server.js holds the parts of the client that do not need the VS Code API:
// reading the skillc settings and turning them into the options
// vscode-languageclient uses to start `skillc lsp`. Keeping them here lets
// plain `node --test` exercise them.

const os = require('os');
const path = require('path');

// LANGUAGE_ID is the VS Code language id of skillscript files.
const LANGUAGE_ID = 'skillscript';

// CLIENT_ID is the language client id; vscode-languageclient reads the
// `skillc.trace.server` setting because of it.
const CLIENT_ID = 'skillc';

// DEFAULT_PATH is used when `skillc.path` is empty or unset.
const DEFAULT_PATH = 'skillc';

// expandPath resolves a configured skillc path: a leading "~" becomes the
// home directory, ${userHome} and ${workspaceFolder} are substituted, and a
// relative path that contains a separator is taken relative to the first
// workspace folder. A bare command name ("skillc") is left for PATH lookup.
function expandPath(value, ctx = {}) {
  const home = ctx.home || os.homedir();
  let p = typeof value === 'string' ? value.trim() : '';
  if (p === '') {
    return DEFAULT_PATH;
  }
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    p = path.join(home, p.slice(1));
  }
  p = p.replace(/\$\{userHome\}/g, home);
  if (ctx.workspaceFolder) {
    p = p.replace(/\$\{workspaceFolder\}/g, ctx.workspaceFolder);
  }
  const hasSeparator = p.includes('/') || p.includes('\\');
  if (hasSeparator && !path.isAbsolute(p) && ctx.workspaceFolder) {
    p = path.resolve(ctx.workspaceFolder, p);
  }
  return p;
}

// serverEnv returns the environment of skillc processes: the editor's,
// then the `skillc.env` entries, then `skillc.skillscriptHome` as
// SKILLSCRIPT_HOME (paths expanded like skillc.path).
function serverEnv(settings = {}, ctx = {}) {
  const env = Object.assign({}, ctx.env || process.env);
  for (const [k, v] of Object.entries(settings.env || {})) {
    if (typeof v === 'string') {
      env[k] = v;
    }
  }
  if (typeof settings.skillscriptHome === 'string' && settings.skillscriptHome.trim() !== '') {
    env.SKILLSCRIPT_HOME = expandPath(settings.skillscriptHome, ctx);
  }
  return env;
}

// serverOptions returns the vscode-languageclient ServerOptions that run
// `<skillc.path> lsp <skillc.serverArgs...>`. No transport is set on
// purpose: the client then talks over the child's stdin/stdout without
// appending a --stdio flag.
function serverOptions(settings = {}, ctx = {}) {
  const extra = Array.isArray(settings.serverArgs) ? settings.serverArgs.filter((a) => typeof a === 'string') : [];
  const executable = {
    command: expandPath(settings.path, ctx),
    args: ['lsp', ...extra],
    options: { env: serverEnv(settings, ctx) },
  };
  if (ctx.workspaceFolder) {
    executable.options.cwd = ctx.workspaceFolder;
  }
  return { run: executable, debug: executable };
}

// commandLine returns the command and arguments of the code-lens
// commands: `skillc run FILE` ("run") or `skillc test FILE` ("test").
function commandLine(kind, file, settings = {}, ctx = {}) {
  if (kind !== 'run' && kind !== 'test') {
    throw new Error(`unknown skillc command ${kind}`);
  }
  return { command: expandPath(settings.path, ctx), args: [kind, file], env: serverEnv(settings, ctx) };
}

// DEBUG_TYPE is the debugger type contributed in package.json.
const DEBUG_TYPE = 'skillscript';

// debugAdapter returns the command, arguments and spawn options of the
// debug adapter: `<skillc.path> dap` over stdio, with the same
// environment as the language server.
function debugAdapter(settings = {}, ctx = {}) {
  const options = { env: serverEnv(settings, ctx) };
  if (ctx.workspaceFolder) {
    options.cwd = ctx.workspaceFolder;
  }
  return { command: expandPath(settings.path, ctx), args: ['dap'], options };
}

// resolveDebugConfiguration fills in a launch configuration: F5 without a
// launch.json debugs the active skill, stopping on entry; a configuration
// without program or trace is refused with a message (returned as error).
function resolveDebugConfiguration(config = {}, activeFile) {
  const out = Object.assign({}, config);
  if (!out.type && !out.request && !out.name) {
    if (!activeFile) {
      return { error: 'skillc: open a .skill.md file to debug it' };
    }
    Object.assign(out, { type: DEBUG_TYPE, request: 'launch', name: 'Debug skill', program: activeFile, stopOnEntry: true });
  }
  if (!out.program && !out.trace) {
    return { error: 'skillc: the launch configuration needs "program" (a .skill.md path) or "trace" (a trace id to replay)' };
  }
  return { config: out };
}

// documentSelector lists the documents the server is asked about.
function documentSelector() {
  return [
    { scheme: 'file', language: LANGUAGE_ID },
    { scheme: 'untitled', language: LANGUAGE_ID },
  ];
}

// startFailureMessage explains a failed server start in one line; a missing
// binary gets a hint about the `skillc.path` setting.
function startFailureMessage(err, command) {
  const detail = err && err.message ? err.message : String(err);
  if ((err && err.code === 'ENOENT') || /ENOENT|not found/i.test(detail)) {
    return `skillc: cannot run "${command} lsp" (${detail}); install skillc or set "skillc.path" (in a remote window such as code-server, in the Remote settings: VS Code ignores it in the User settings there)`;
  }
  return `skillc: the language server failed to start: ${detail}`;
}

module.exports = {
  CLIENT_ID,
  DEBUG_TYPE,
  debugAdapter,
  resolveDebugConfiguration,
  commandLine,
  serverEnv,
  DEFAULT_PATH,
  LANGUAGE_ID,
  documentSelector,
  expandPath,
  serverOptions,
  startFailureMessage,
};
