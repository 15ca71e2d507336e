'use strict';

// build-grammar.js writes syntaxes/skillscript.tmLanguage.json from
// syntaxes/grammar-source.js. With --check it writes nothing and exits 1 when
// the committed JSON differs from what the source produces.

const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const source = path.join(root, 'syntaxes', 'grammar-source.js');
const target = path.join(root, 'syntaxes', 'skillscript.tmLanguage.json');

// render returns the JSON text of the grammar.
function render() {
  return JSON.stringify(require(source), null, 2) + '\n';
}

function main(argv) {
  const text = render();
  if (argv.includes('--check')) {
    const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
    if (current !== text) {
      console.error('skillscript.tmLanguage.json is out of date: run npm run build:grammar');
      return 1;
    }
    console.log('grammar json is up to date');
    return 0;
  }
  fs.writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
