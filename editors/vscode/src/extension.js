'use strict';

// extension.js is the VS Code entry point. It starts `skillc lsp` through
// vscode-languageclient when a skillscript file opens, restarts it when
// `skillc.path` changes or on the "Skillscript: Restart Language Server"
// command, and stops it on deactivation. Plain JavaScript: no build step.

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const server = require('./server');

// state is per activation; VS Code activates an extension once per window.
const state = { client: undefined, output: undefined };

// workspaceFolderPath returns the first workspace folder on disk, if any.
function workspaceFolderPath() {
  const folders = vscode.workspace.workspaceFolders;
  if (!folders || folders.length === 0 || folders[0].uri.scheme !== 'file') {
    return undefined;
  }
  return folders[0].uri.fsPath;
}

// createClient builds a language client from the current settings.
function createClient() {
  const config = vscode.workspace.getConfiguration('skillc');
  const run = server.serverOptions(
    { path: config.get('path', server.DEFAULT_PATH) },
    { workspaceFolder: workspaceFolderPath() },
  );
  const clientOptions = {
    documentSelector: server.documentSelector(),
    outputChannel: state.output,
    traceOutputChannel: state.output,
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        '**/{connectors.json,skillscript.config.json}',
      ),
    },
  };
  const client = new LanguageClient(server.CLIENT_ID, 'skillc language server', run, clientOptions);
  return { client, command: run.run.command };
}

// startClient starts a fresh client and reports a failed start to the user.
async function startClient() {
  const { client, command } = createClient();
  state.client = client;
  try {
    await client.start();
  } catch (err) {
    state.output.appendLine(server.startFailureMessage(err, command));
    const choice = await vscode.window.showErrorMessage(
      server.startFailureMessage(err, command),
      'Open Settings',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'skillc.path');
    }
  }
}

// stopClient stops the running client, if any.
async function stopClient() {
  const client = state.client;
  state.client = undefined;
  if (client && client.isRunning()) {
    await client.stop();
  }
}

// restartClient stops the current client and starts a new one.
async function restartClient() {
  await stopClient();
  await startClient();
}

// activate is called by VS Code when a skillscript document is opened.
async function activate(context) {
  state.output = vscode.window.createOutputChannel('skillc');
  context.subscriptions.push(
    state.output,
    vscode.commands.registerCommand('skillc.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('skillc.path')) {
        restartClient();
      }
    }),
  );
  await startClient();
}

// deactivate stops the server when the window closes.
function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
