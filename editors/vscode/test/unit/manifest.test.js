'use strict';

// manifest.test.js checks that package.json, the language configuration and
// the grammar agree with each other and with VS Code's expectations.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { ROOT } = require('./helpers');

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const langConfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'language-configuration.json'), 'utf8'));

test('the language is contributed for *.skill.md', () => {
  const lang = pkg.contributes.languages.find((l) => l.id === 'skillscript');
  assert.ok(lang);
  assert.ok(lang.extensions.includes('.skill.md'));
  assert.ok(lang.filenamePatterns.includes('*.skill.md'));
  assert.ok(fs.existsSync(path.join(ROOT, lang.configuration)));
});

test('the grammar contribution points at a grammar with the same scope', () => {
  const g = pkg.contributes.grammars.find((x) => x.language === 'skillscript');
  const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, g.path), 'utf8'));
  assert.equal(g.scopeName, 'source.skillscript');
  assert.equal(grammar.scopeName, g.scopeName);
});

test('every include in the grammar resolves to a repository rule', () => {
  const grammar = JSON.parse(fs.readFileSync(path.join(ROOT, 'syntaxes/skillscript.tmLanguage.json'), 'utf8'));
  const includes = [];
  JSON.stringify(grammar, (key, value) => {
    if (key === 'include') {
      includes.push(value);
    }
    return value;
  });
  for (const inc of includes) {
    assert.ok(inc.startsWith('#'), `external include ${inc} would be ignored silently`);
    assert.ok(grammar.repository[inc.slice(1)], `unknown rule ${inc}`);
  }
});

test('the manifest is ready for packaging', () => {
  assert.match(pkg.engines.vscode, /^\^1\.\d+\.\d+$/);
  assert.ok(fs.existsSync(path.join(ROOT, pkg.main)));
  assert.ok(pkg.dependencies['vscode-languageclient']);
  assert.ok(!pkg.devDependencies['vscode-languageclient']);
  assert.ok(pkg.devDependencies['@vscode/vsce']);
  assert.equal(pkg.contributes.configuration.properties['skillc.path'].default, 'skillc');
  assert.equal(pkg.license, 'MIT');
  const license = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  assert.match(license, /MIT License/);
  assert.match(license, /skillc authors/);
});

test('the language configuration comments with # and closes ${', () => {
  assert.equal(langConfig.comments.lineComment, '#');
  assert.ok(langConfig.autoClosingPairs.some((p) => p.open === '${' && p.close === '}'));
  assert.ok(langConfig.autoClosingPairs.some((p) => p.open === '"'));
  assert.equal(langConfig.folding.offSide, true);
});

test('indentation rules open blocks after lines ending in a colon', () => {
  const inc = new RegExp(langConfig.indentationRules.increaseIndentPattern);
  const dec = new RegExp(langConfig.indentationRules.decreaseIndentPattern);
  for (const line of ['run:', 'compose: needs: a, b', 'report: fetch_issues', 'else:',
    '    if ${X} == "a":', '    elif ${N} > 5:  # note', '    foreach M in ${L}:', '    else:', '# Tests:']) {
    assert.ok(inc.test(line), `should indent after ${line}`);
  }
  for (const line of ['default: run', '# Skill: x', '    # note:', '    emit(text="a:")',
    '    $ llm prompt="x" -> V (fallback: "y")', 'Hello, ${WHO}!']) {
    assert.ok(!inc.test(line), `should not indent after ${line}`);
  }
  assert.ok(dec.test('    else:'));
  assert.ok(dec.test('    elif ${A}:'));
  assert.ok(!dec.test('    emit(text="else:")'));
});

test('the word pattern keeps dashed target names whole', () => {
  const re = new RegExp(langConfig.wordPattern, 'g');
  assert.deepEqual('fetch-issues: needs: a_b'.match(re), ['fetch-issues', 'needs', 'a_b']);
});

test('settings, defaults and commands for the language server are contributed', () => {
  const props = pkg.contributes.configuration.properties;
  for (const k of ['skillc.path', 'skillc.serverArgs', 'skillc.env', 'skillc.skillscriptHome', 'skillc.server.debounceMs', 'skillc.server.fullAnalysisDelayMs']) {
    assert.ok(props[k], `setting ${k}`);
  }
  const defaults = pkg.contributes.configurationDefaults['[skillscript]'];
  assert.equal(defaults['editor.tabSize'], 4);
  assert.equal(defaults['editor.insertSpaces'], true);
  const commands = pkg.contributes.commands.map((c) => c.command);
  for (const c of ['skillc.run', 'skillc.test', 'skillc.restartServer']) {
    assert.ok(commands.includes(c), `command ${c}`);
  }
});

test('the debugger is contributed with the launch arguments skillc dap reads', () => {
  const dbg = pkg.contributes.debuggers.find((d) => d.type === 'skillscript');
  assert.ok(dbg);
  const props = Object.keys(dbg.configurationAttributes.launch.properties).sort();
  assert.deepEqual(props, ['database', 'inputs', 'mocks', 'program', 'realEffects', 'stopOnEntry', 'trace']);
  assert.ok(pkg.contributes.breakpoints.some((b) => b.language === 'skillscript'));
  assert.ok(pkg.activationEvents.includes('onDebugResolve:skillscript'));
});
