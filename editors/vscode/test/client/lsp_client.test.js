// Drives the skillscript language server with vscode-languageserver-protocol
// (the library VS Code's client is built on) as a second, independent client.
//
//   SKILLC_LSP_BIN=/path/to/skillc SKILLC_LSP_ARGS=lsp \
//   SKILLC_LSP_WORKSPACE=/path/to/workspace node lsp_client.test.js
//
// The workspace must hold broken.skill.md and brief.skill.md from
// testdata/lsp/ws. Exits non-zero with a message on the first failure.
'use strict';

const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const rpc = require('vscode-languageserver-protocol/node');

const bin = process.env.SKILLC_LSP_BIN;
const args = (process.env.SKILLC_LSP_ARGS || '').split(' ').filter(Boolean);
const ws = process.env.SKILLC_LSP_WORKSPACE;
if (!bin || !ws) {
  console.error('SKILLC_LSP_BIN and SKILLC_LSP_WORKSPACE are required');
  process.exit(2);
}

const timer = setTimeout(() => fail('timed out'), 30000);

function fail(msg) {
  console.error('FAIL: ' + msg);
  process.exit(1);
}

function check(cond, msg) {
  if (!cond) fail(msg);
}

// positionOf returns the LSP position of the first needle in text plus delta.
function positionOf(text, needle, delta) {
  const off = text.indexOf(needle);
  check(off >= 0, `needle ${needle} not found`);
  const before = text.slice(0, off);
  const line = before.split('\n').length - 1;
  const col = off - (before.lastIndexOf('\n') + 1);
  return { line, character: col + (delta || 0) };
}

async function main() {
  const step = (s) => { if (process.env.SKILLC_LSP_DEBUG) console.error('step: ' + s); };
  const child = cp.spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin));
  const waiters = [];
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    for (const w of waiters.slice()) {
      if (w.uri === p.uri && w.pred(p)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
  });
  const waitDiags = (uri, pred) => new Promise((resolve) => waiters.push({ uri, pred, resolve }));
  conn.listen();

  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid, rootUri: pathToFileURL(ws).href, capabilities: {}, workspaceFolders: null,
  });
  step('initialized');
  check(init.capabilities.hoverProvider, 'no hover capability');
  check(init.capabilities.semanticTokensProvider.legend.tokenTypes.length > 0, 'no semantic legend');
  await conn.sendNotification(rpc.InitializedNotification.type, {});

  // Diagnostics at the right positions, then cleared by an edit.
  const brokenPath = path.join(ws, 'broken.skill.md');
  const broken = fs.readFileSync(brokenPath, 'utf8');
  const brokenUri = pathToFileURL(brokenPath).href;
  let got = waitDiags(brokenUri, (p) => p.version === 1);
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: brokenUri, languageId: 'skillscript', version: 1, text: broken },
  });
  step('opened broken');
  let diags = (await got).diagnostics;
  step('diagnostics');
  const single = diags.find((d) => d.code === 'single-equals');
  check(single, 'no single-equals diagnostic: ' + JSON.stringify(diags));
  const want = positionOf(broken, '= "x"');
  check(single.range.start.line === want.line && single.range.start.character === want.character,
    'single-equals at ' + JSON.stringify(single.range.start) + ', want ' + JSON.stringify(want));
  check(single.severity === rpc.DiagnosticSeverity.Error, 'severity ' + single.severity);
  check(/#single-equals$/.test(single.codeDescription.href), 'rule link ' + single.codeDescription.href);

  const fixed = broken.replace('= "x"', '== "x"').replace('emit(text="bye"', 'emit(text="bye")');
  got = waitDiags(brokenUri, (p) => p.version === 2);
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: brokenUri, version: 2 }, contentChanges: [{ text: fixed }],
  });
  diags = (await got).diagnostics;
  check(diags.length === 0, 'diagnostics after the fix: ' + JSON.stringify(diags));

  // Hover and completion on a healthy skill.
  const briefPath = path.join(ws, 'brief.skill.md');
  const brief = fs.readFileSync(briefPath, 'utf8');
  const briefUri = pathToFileURL(briefPath).href;
  got = waitDiags(briefUri, (p) => p.version === 1);
  await conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri: briefUri, languageId: 'skillscript', version: 1, text: brief },
  });
  await got;
  step('hover');
  const hover = await conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri: briefUri }, position: positionOf(brief, '${PROJECT}', 3),
  });
  check(hover && /PROJECT/.test(hover.contents.value) && /"INFRA"/.test(hover.contents.value),
    'hover: ' + JSON.stringify(hover));

  const edited = brief.replace('    $ llm prompt', '    $ tracker.\n    $ llm prompt');
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: briefUri, version: 2 }, contentChanges: [{ text: edited }],
  });
  step('completion');
  const comp = await conn.sendRequest(rpc.CompletionRequest.type, {
    textDocument: { uri: briefUri }, position: positionOf(edited, '$ tracker.\n', 10),
  });
  const items = Array.isArray(comp) ? comp : comp.items;
  check(items.some((i) => i.label === 'search'), 'completion: ' + JSON.stringify(items.map((i) => i.label)));

  // The editing capabilities, through an independent client library.
  step('editing capabilities');
  for (const cap of ['selectionRangeProvider', 'documentHighlightProvider', 'declarationProvider',
    'linkedEditingRangeProvider', 'documentRangeFormattingProvider', 'documentOnTypeFormattingProvider']) {
    check(init.capabilities[cap], 'no ' + cap);
  }
  check(init.capabilities.workspace.workspaceFolders.changeNotifications === true, 'workspace folders not advertised');
  const sel = await conn.sendRequest(rpc.SelectionRangeRequest.type, {
    textDocument: { uri: briefUri }, positions: [positionOf(edited, 'ISSUE.summary', 2)],
  });
  const chain = [];
  for (let r = sel[0]; r; r = r.parent) chain.push(r.range);
  check(chain.length >= 6 && chain[0].start.character === 34 && chain[0].end.character === 39,
    'selection range: ' + JSON.stringify(chain.slice(0, 2)));
  const hl = await conn.sendRequest(rpc.DocumentHighlightRequest.type, {
    textDocument: { uri: briefUri }, position: positionOf(edited, 'ISSUES.items', 1),
  });
  check(hl.length === 3 && hl[0].kind === rpc.DocumentHighlightKind.Write && hl[1].kind === rpc.DocumentHighlightKind.Read,
    'document highlight: ' + JSON.stringify(hl));
  const decl = await conn.sendRequest(rpc.DeclarationRequest.type, {
    textDocument: { uri: briefUri }, position: positionOf(edited, 'default: summarize', 10),
  });
  check(decl.length === 1 && decl[0].range.start.line === 12, 'declaration: ' + JSON.stringify(decl));
  const open = edited.replace('    $ tracker.\n', '    notify(agent="ops", \n');
  await conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
    textDocument: { uri: briefUri, version: 3 }, contentChanges: [{ text: open }],
  });
  const sig = await conn.sendRequest(rpc.SignatureHelpRequest.type, {
    textDocument: { uri: briefUri }, position: positionOf(open, 'notify(agent="ops", ', 20),
  });
  check(sig && /^notify\(/.test(sig.signatures[0].label) && sig.activeParameter === 1,
    'signature help in an unclosed call: ' + JSON.stringify(sig));
  const preview = await conn.sendRequest(rpc.ExecuteCommandRequest.type, {
    command: 'skillc.approve.preview', arguments: [briefUri],
  });
  check(preview.skill === 'brief' && preview.summary.some((l) => /shell curl/.test(l)),
    'skillc.approve.preview: ' + JSON.stringify(preview));

  // An unknown method is a proper error, and the session survives it.
  let unknownFailed = false;
  try {
    await conn.sendRequest('skillc/noSuchMethod', {});
  } catch (e) {
    unknownFailed = e.code === rpc.ErrorCodes.MethodNotFound;
  }
  check(unknownFailed, 'unknown method did not fail with MethodNotFound');

  step('shutdown');
  await conn.sendRequest(rpc.ShutdownRequest.type);
  await conn.sendNotification(rpc.ExitNotification.type);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  check(code === 0, 'server exit code ' + code);
  clearTimeout(timer);
  console.log('ok: node client session passed');
  process.exit(0);
}

main().catch((e) => fail(e && e.stack ? e.stack : String(e)));
