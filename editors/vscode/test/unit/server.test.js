'use strict';

// server.test.js covers the settings-to-process logic of the client.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const server = require('../../src/server');

const ctx = { home: '/home/ada', workspaceFolder: '/work/project', env: { PATH: '/usr/bin' } };

test('expandPath keeps a bare command for PATH lookup', () => {
  assert.equal(server.expandPath('skillc', ctx), 'skillc');
  assert.equal(server.expandPath('', ctx), 'skillc');
  assert.equal(server.expandPath(undefined, ctx), 'skillc');
  assert.equal(server.expandPath('  ', ctx), 'skillc');
});

test('expandPath expands home and workspace variables', () => {
  assert.equal(server.expandPath('~/bin/skillc', ctx), path.join('/home/ada', 'bin/skillc'));
  assert.equal(server.expandPath('${userHome}/go/bin/skillc', ctx), '/home/ada/go/bin/skillc');
  assert.equal(server.expandPath('${workspaceFolder}/bin/skillc', ctx), '/work/project/bin/skillc');
  assert.equal(server.expandPath('/opt/skillc/skillc', ctx), '/opt/skillc/skillc');
});

test('expandPath resolves relative paths against the workspace folder', () => {
  assert.equal(server.expandPath('./bin/skillc', ctx), path.resolve('/work/project', 'bin/skillc'));
  assert.equal(server.expandPath('bin/skillc', { home: '/h' }), 'bin/skillc');
});

test('serverOptions runs "<path> lsp" over stdio', () => {
  const opts = server.serverOptions({ path: '~/bin/skillc' }, ctx);
  assert.deepEqual(opts.run.args, ['lsp']);
  assert.equal(opts.run.command, path.join('/home/ada', 'bin/skillc'));
  assert.equal(opts.run.transport, undefined, 'a transport would add a --stdio flag');
  assert.equal(opts.run.options.cwd, '/work/project');
  assert.deepEqual(opts.run.options.env, { PATH: '/usr/bin' });
  assert.deepEqual(opts.debug, opts.run);
});

test('serverOptions copies the environment instead of sharing it', () => {
  const env = { A: '1' };
  const opts = server.serverOptions({}, { env });
  opts.run.options.env.A = '2';
  assert.equal(env.A, '1');
  assert.equal(opts.run.command, 'skillc');
  assert.equal(opts.run.options.cwd, undefined);
});

test('documentSelector targets skillscript files and untitled buffers', () => {
  assert.deepEqual(server.documentSelector().map((d) => `${d.scheme}:${d.language}`), [
    'file:skillscript',
    'untitled:skillscript',
  ]);
});

test('startFailureMessage points at skillc.path for a missing binary', () => {
  const missing = Object.assign(new Error('spawn skillc ENOENT'), { code: 'ENOENT' });
  assert.match(server.startFailureMessage(missing, 'skillc'), /set "skillc.path"/);
  assert.match(server.startFailureMessage(missing, 'skillc'), /Remote settings/);
  assert.match(server.startFailureMessage(new Error('exit 2'), 'skillc'), /failed to start: exit 2/);
  assert.match(server.startFailureMessage('boom', 'x'), /boom/);
});

test('the client id matches the trace setting prefix', () => {
  const pkg = require('../../package.json');
  const props = Object.keys(pkg.contributes.configuration.properties);
  assert.ok(props.includes(`${server.CLIENT_ID}.trace.server`));
  assert.ok(props.includes(`${server.CLIENT_ID}.path`));
});

test('serverOptions appends skillc.serverArgs and sets the environment', () => {
  const opts = server.serverOptions(
    { path: 'skillc', serverArgs: ['--debounce', '0', 7], env: { A: 'x', N: 3 }, skillscriptHome: '~/sk' },
    ctx,
  );
  assert.deepEqual(opts.run.args, ['lsp', '--debounce', '0']);
  assert.equal(opts.run.options.env.A, 'x');
  assert.equal(opts.run.options.env.N, undefined, 'non-string values are ignored');
  assert.equal(opts.run.options.env.SKILLSCRIPT_HOME, path.join('/home/ada', 'sk'));
  assert.equal(opts.run.options.env.PATH, '/usr/bin');
});

test('commandLine runs skillc run/test on the file with the same environment', () => {
  const c = server.commandLine('test', '/work/project/a.skill.md', { path: '${workspaceFolder}/bin/skillc', env: { B: '1' } }, ctx);
  assert.equal(c.command, '/work/project/bin/skillc');
  assert.deepEqual(c.args, ['test', '/work/project/a.skill.md']);
  assert.equal(c.env.B, '1');
  assert.throws(() => server.commandLine('rm', 'x', {}, ctx), /unknown skillc command/);
});

test('debugAdapter runs `skillc dap` with the server environment', () => {
  const a = server.debugAdapter({ path: '~/bin/skillc', env: { A: '1' }, skillscriptHome: '/h/.ss' }, ctx);
  assert.equal(a.command, path.join('/home/ada', 'bin/skillc'));
  assert.deepEqual(a.args, ['dap']);
  assert.equal(a.options.cwd, '/work/project');
  assert.equal(a.options.env.A, '1');
  assert.equal(a.options.env.SKILLSCRIPT_HOME, '/h/.ss');
});

test('resolveDebugConfiguration debugs the active skill without launch.json', () => {
  const r = server.resolveDebugConfiguration({}, '/work/project/a.skill.md');
  assert.deepEqual(r.config, { type: 'skillscript', request: 'launch', name: 'Debug skill', program: '/work/project/a.skill.md', stopOnEntry: true });
  assert.match(server.resolveDebugConfiguration({}, undefined).error, /open a \.skill\.md/);
  assert.match(server.resolveDebugConfiguration({ type: 'skillscript', request: 'launch', name: 'x' }).error, /"program"/);
  const replay = { type: 'skillscript', request: 'launch', name: 'r', trace: 'abc' };
  assert.deepEqual(server.resolveDebugConfiguration(replay).config, replay);
});
