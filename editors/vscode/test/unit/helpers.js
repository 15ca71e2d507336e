'use strict';

// helpers.js shares the tokenizer and the fixture locations between tests.

const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize } = require('../../scripts/tokenize');

const ROOT = path.resolve(__dirname, '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures');
// OWN_CORPUS is the repository's own corpus (testdata/corpus).
const OWN_CORPUS = path.resolve(ROOT, '..', '..', 'testdata', 'corpus');
// CORPUS is the shared example corpus beside the repository, when present.
const CORPUS = path.resolve(ROOT, '..', '..', '..', 'shared', 'corpus');

let grammarPromise;

// grammar loads the skillscript grammar once per test process.
function grammar() {
  grammarPromise = grammarPromise || loadGrammar();
  return grammarPromise;
}

// skillFiles lists the *.skill.md files under dir, recursively.
function skillFiles(dir) {
  if (!fs.existsSync(dir)) {
    return [];
  }
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...skillFiles(full));
    } else if (entry.name.endsWith('.skill.md')) {
      out.push(full);
    }
  }
  return out.sort();
}

// tokensOf tokenizes a file's text.
async function tokensOf(text) {
  return tokenize(await grammar(), text);
}

// scopesAt returns the scopes of the token covering (line, column).
function scopesAt(tokens, line, column) {
  const t = tokens.find((x) => x.line === line && x.start <= column && column < x.end);
  return t ? t.scopes : [];
}

module.exports = { ROOT, FIXTURES, OWN_CORPUS, CORPUS, grammar, skillFiles, tokensOf, scopesAt };
