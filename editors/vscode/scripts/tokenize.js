'use strict';

// tokenize.js loads the skillscript grammar into vscode-textmate (the
// tokenizer VS Code itself uses) and tokenizes text. It is a library for the
// unit tests and a command-line debugging aid:
//
//   node scripts/tokenize.js file.skill.md   # prints one line per token

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const GRAMMAR_PATH = path.resolve(__dirname, '..', 'syntaxes', 'skillscript.tmLanguage.json');
const SCOPE = 'source.skillscript';

// loadGrammar returns a vscode-textmate grammar for source.skillscript.
async function loadGrammar(grammarPath = GRAMMAR_PATH) {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== SCOPE) {
        return null;
      }
      const text = fs.readFileSync(grammarPath, 'utf8');
      return vsctm.parseRawGrammar(text, grammarPath);
    },
  });
  const grammar = await registry.loadGrammar(SCOPE);
  if (!grammar) {
    throw new Error(`cannot load grammar ${grammarPath}`);
  }
  return grammar;
}

// tokenize splits text into lines and returns, per line, the tokens as
// {line, start, end, text, scopes}.
function tokenize(grammar, text) {
  const out = [];
  let state = vsctm.INITIAL;
  text.split(/\r?\n/).forEach((line, lineNo) => {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens) {
      out.push({
        line: lineNo,
        start: t.startIndex,
        end: t.endIndex,
        text: line.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
      });
    }
    state = result.ruleStack;
  });
  return out;
}

async function main(files) {
  const grammar = await loadGrammar();
  for (const file of files) {
    for (const t of tokenize(grammar, fs.readFileSync(file, 'utf8'))) {
      console.log(`${t.line + 1}:${t.start}\t${JSON.stringify(t.text)}\t${t.scopes.slice(1).join(' ')}`);
    }
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err.message);
    process.exitCode = 1;
  });
}

module.exports = { loadGrammar, tokenize, GRAMMAR_PATH, SCOPE };
