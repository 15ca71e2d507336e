'use strict';

// fake_lsp_server.js is a stand-in for `skillc lsp` in the Neovim client
// test until the real server exists. It speaks LSP over stdio
// (Content-Length framed JSON-RPC): it answers initialize and shutdown,
// exits on exit, and for every didOpen publishes one diagnostic naming the
// document and the root URI it was given, so the test can see both.

let buffer = Buffer.alloc(0);
let rootUri = null;

function send(message) {
  const body = Buffer.from(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, message)), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

function handle(msg) {
  if (msg.method === 'initialize') {
    rootUri = msg.params.rootUri;
    send({ id: msg.id, result: { capabilities: { textDocumentSync: 1 }, serverInfo: { name: 'fake-skillc' } } });
  } else if (msg.method === 'shutdown') {
    send({ id: msg.id, result: null });
  } else if (msg.method === 'exit') {
    process.exit(0);
  } else if (msg.method === 'textDocument/didOpen') {
    const doc = msg.params.textDocument;
    send({
      method: 'textDocument/publishDiagnostics',
      params: {
        uri: doc.uri,
        diagnostics: [{
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
          severity: 2,
          code: 'fake-rule',
          source: 'skillc',
          message: `opened ${doc.languageId} in ${rootUri}`,
        }],
      },
    });
  } else if (msg.id !== undefined && msg.method) {
    send({ id: msg.id, result: null });
  }
}

// drain parses every complete message in the buffer.
function drain() {
  for (;;) {
    const sep = buffer.indexOf('\r\n\r\n');
    if (sep < 0) {
      return;
    }
    const match = /Content-Length: *(\d+)/i.exec(buffer.slice(0, sep).toString('ascii'));
    if (!match) {
      process.exit(2);
    }
    const length = Number(match[1]);
    if (buffer.length < sep + 4 + length) {
      return;
    }
    const body = buffer.slice(sep + 4, sep + 4 + length).toString('utf8');
    buffer = buffer.slice(sep + 4 + length);
    handle(JSON.parse(body));
  }
}

process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  drain();
});
process.stdin.on('end', () => process.exit(0));
