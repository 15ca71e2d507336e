'use strict';

// bench.js measures how fast vscode-textmate tokenizes skillscript with our
// grammar: it repeats test/fixtures/tour.skill.md until the text has at least
// --lines lines (default 20000) and reports lines per second over --runs
// runs (default 5). A measurement, not a test: nothing is asserted.

const fs = require('fs');
const path = require('path');
const { loadGrammar, tokenize } = require('./tokenize');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const want = arg('lines', 20000);
  const runs = arg('runs', 5);
  const unit = fs.readFileSync(path.join(__dirname, '..', 'test', 'fixtures', 'tour.skill.md'), 'utf8');
  const parts = [];
  let lines = 0;
  while (lines < want) {
    parts.push(unit);
    lines += unit.split('\n').length;
  }
  const text = parts.join('\n');
  const grammar = await loadGrammar();
  tokenize(grammar, text); // warm up
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    tokenize(grammar, text);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`tokenize ${lines} lines: median ${median.toFixed(1)} ms, ${Math.round(lines / (median / 1000))} lines/s`);
}

main().catch((err) => {
  console.error(err.message);
  process.exitCode = 1;
});
