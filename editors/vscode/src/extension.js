'use strict';

// extension.js is the VS Code entry point. It starts `skillc lsp` through
// vscode-languageclient when a skillscript file opens, restarts it when
// `skillc.path` changes or on the "Skillscript: Restart Language Server"
// command, and stops it on deactivation. Plain JavaScript: no build step.

const vscode = require('vscode');
const { execFile } = require('child_process');
const { LanguageClient } = require('vscode-languageclient/node');
const server = require('./server');

// state is per activation; VS Code activates an extension once per window.
const state = { client: undefined, output: undefined, runOutput: undefined };

// settings reads the skillc settings the client and the commands use.
function settings() {
  const config = vscode.workspace.getConfiguration('skillc');
  return {
    path: config.get('path', server.DEFAULT_PATH),
    serverArgs: config.get('serverArgs', []),
    env: config.get('env', {}),
    skillscriptHome: config.get('skillscriptHome', ''),
  };
}

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
  const run = server.serverOptions(settings(), { workspaceFolder: workspaceFolderPath() });
  // The server registers its own file watchers (skills, connectors.json,
  // the configuration, .env) and pulls the "skillc" settings section.
  const clientOptions = {
    documentSelector: server.documentSelector(),
    outputChannel: state.output,
    traceOutputChannel: state.output,
    // skillc.run and skillc.test run in the "skillc run" channel here; the
    // server leaves them out of executeCommandProvider so that the client
    // does not register them a second time (it still offers
    // skillc.approve.preview and skillc.fix.all).
    initializationOptions: { clientCommands: ['skillc.run', 'skillc.test'] },
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

// runSkill runs `skillc run|test FILE` for a code lens and shows the
// output in the "skillc run" channel.
function runSkill(kind, uriString) {
  const uri = uriString ? vscode.Uri.parse(uriString) : vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') {
    vscode.window.showWarningMessage('skillc: save the skill to a file to run it');
    return Promise.resolve();
  }
  const folder = workspaceFolderPath();
  const cmd = server.commandLine(kind, uri.fsPath, settings(), { workspaceFolder: folder });
  state.runOutput.show(true);
  state.runOutput.appendLine(`$ ${cmd.command} ${cmd.args.join(' ')}`);
  return new Promise((resolve) => {
    execFile(cmd.command, cmd.args, { cwd: folder, env: cmd.env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      state.runOutput.append(stdout);
      state.runOutput.append(stderr);
      state.runOutput.appendLine(err ? `[exit ${err.code}]` : '[exit 0]');
      resolve();
    });
  });
}

// registerDebugger contributes `skillc dap` as the "skillscript" debug
// adapter, and fills in a launch configuration for F5 without launch.json.
function registerDebugger(context) {
  const factory = {
    createDebugAdapterDescriptor() {
      const a = server.debugAdapter(settings(), { workspaceFolder: workspaceFolderPath() });
      state.output.appendLine(`debug adapter: ${a.command} ${a.args.join(' ')}`);
      return new vscode.DebugAdapterExecutable(a.command, a.args, a.options);
    },
  };
  const provider = {
    resolveDebugConfiguration(_folder, config) {
      const doc = vscode.window.activeTextEditor?.document;
      const active = doc && doc.languageId === server.LANGUAGE_ID && doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined;
      const r = server.resolveDebugConfiguration(config, active);
      if (r.error) {
        vscode.window.showErrorMessage(r.error);
        return undefined;
      }
      return r.config;
    },
  };
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(server.DEBUG_TYPE, factory),
    vscode.debug.registerDebugConfigurationProvider(server.DEBUG_TYPE, provider),
  );
}

// activate is called by VS Code when a skillscript document is opened.
async function activate(context) {
  state.output = vscode.window.createOutputChannel('skillc');
  state.runOutput = vscode.window.createOutputChannel('skillc run');
  context.subscriptions.push(
    state.output,
    state.runOutput,
    vscode.commands.registerCommand('skillc.restartServer', restartClient),
    vscode.commands.registerCommand('skillc.run', (u) => runSkill('run', u)),
    vscode.commands.registerCommand('skillc.test', (u) => runSkill('test', u)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      const restart = ['skillc.path', 'skillc.serverArgs', 'skillc.env', 'skillc.skillscriptHome'];
      if (restart.some((k) => event.affectsConfiguration(k))) {
        state.output.appendLine(`skillc settings changed (skillc.path is now ${JSON.stringify(settings().path)}): restarting the language server`);
        restartClient();
      }
    }),
  );
  registerDebugger(context);
  await startClient();
}

// deactivate stops the server when the window closes.
function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
