'use strict';

// check-package.js packages the extension with @vscode/vsce into a temporary
// directory and checks the .vsix: it must hold the manifest, the client, the
// grammar, the language configuration and the vscode-languageclient runtime
// dependency, and none of the development files.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const { listZip } = require('./zip');

const root = path.resolve(__dirname, '..');

const REQUIRED = [
  'extension.vsixmanifest',
  'extension/package.json',
  'extension/language-configuration.json',
  'extension/syntaxes/skillscript.tmLanguage.json',
  'extension/src/extension.js',
  'extension/src/server.js',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
  'extension/node_modules/vscode-languageclient/package.json',
  'extension/node_modules/vscode-languageserver-protocol/package.json',
];

const FORBIDDEN = [
  /^extension\/test\//,
  /^extension\/scripts\//,
  /^extension\/syntaxes\/grammar-source\.js$/,
  /^extension\/node_modules\/(@vscode\/vsce|vscode-tmgrammar-test|vscode-textmate|vscode-oniguruma)\//,
  /\.vsix$/,
];

// packageExtension runs vsce and returns the path of the produced .vsix.
function packageExtension(outDir) {
  const out = path.join(outDir, 'skillscript.vsix');
  const vsce = require.resolve('@vscode/vsce/vsce');
  execFileSync(process.execPath, [vsce, 'package', '--out', out], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return out;
}

// runtimeModules returns the node_modules directories (relative to the
// extension root) of every production dependency, direct or transitive.
function runtimeModules() {
  const text = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return text
    .split('\n')
    .map((line) => path.relative(root, line.trim()).split(path.sep).join('/'))
    .filter((rel) => rel.startsWith('node_modules/'));
}

// problems lists what is wrong with the set of packaged file names, given
// the runtime modules that must ship.
function problems(names, modules = []) {
  const found = new Set(names);
  const out = [];
  const required = REQUIRED.concat(modules.map((m) => `extension/${m}/package.json`));
  for (const want of required) {
    if (!found.has(want)) {
      out.push(`missing ${want}`);
    }
  }
  for (const name of names) {
    if (FORBIDDEN.some((re) => re.test(name))) {
      out.push(`unexpected ${name}`);
    }
  }
  return out;
}

function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillscript-vsix-'));
  try {
    const vsix = packageExtension(dir);
    const names = listZip(fs.readFileSync(vsix));
    const bad = problems(names, runtimeModules());
    for (const p of bad) {
      console.error(`package: ${p}`);
    }
    if (bad.length > 0) {
      return 1;
    }
    console.log(`package: ${path.basename(vsix)} ok (${names.length} files)`);
    return 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  process.exitCode = main();
}

module.exports = { problems, REQUIRED, FORBIDDEN };
