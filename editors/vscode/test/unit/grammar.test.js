'use strict';

// grammar.test.js checks the grammar against whole skills: the examples of
// the repository's own corpus, the shared example corpus (when present) and
// our own fixture must tokenize without error scopes,
// header lines must be headers (never comments or Markdown headings), and
// every indented line under a target must stay inside that target.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { OWN_CORPUS, CORPUS, FIXTURES, skillFiles, tokensOf, scopesAt } = require('./helpers');

const KNOWN_HEADER = /^# (Skill|Status|Description|Vars|Returns|Requires|Triggers|Output|Type|Tags|Autonomous|Timeout|Deadline|Event-type|Templates|Tests):/;

// wellFormed lists the example skills expected to carry no error scopes.
function wellFormed() {
  return skillFiles(path.join(OWN_CORPUS, 'examples'))
    .concat(skillFiles(path.join(CORPUS, 'examples')), skillFiles(FIXTURES));
}

test('example skills have no invalid scopes', async (t) => {
  const files = wellFormed();
  assert.ok(files.length > 0, 'no example skills found');
  for (const file of files) {
    const tokens = await tokensOf(fs.readFileSync(file, 'utf8'));
    const bad = tokens.filter((tok) => tok.scopes.some((s) => s.startsWith('invalid.')));
    assert.deepEqual(
      bad.map((tok) => `${tok.line + 1}:${tok.start} ${tok.text}`),
      [],
      `${path.basename(file)} has invalid tokens`,
    );
  }
  t.diagnostic(`checked ${files.length} files`);
});

test('known header lines are headers, not comments or headings', async () => {
  for (const file of wellFormed()) {
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    const tokens = await tokensOf(lines.join('\n'));
    lines.forEach((line, i) => {
      if (!KNOWN_HEADER.test(line)) {
        return;
      }
      const scopes = scopesAt(tokens, i, 2);
      assert.ok(
        scopes.some((s) => s.startsWith('keyword.other.header.')),
        `${path.basename(file)}:${i + 1} key scopes ${scopes.join(' ')}`,
      );
      assert.ok(!scopes.some((s) => s.startsWith('comment.') || s.startsWith('markup.heading')));
    });
  }
});

test('indented body lines stay inside their target', async () => {
  for (const file of wellFormed()) {
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    const tokens = await tokensOf(lines.join('\n'));
    let inTarget = false;
    lines.forEach((line, i) => {
      if (/^[A-Za-z_][\w-]*:/.test(line) && !line.startsWith('default:')) {
        inTarget = true;
      } else if (/^\S/.test(line)) {
        inTarget = false;
      }
      if (!inTarget || !/^\s+\S/.test(line)) {
        return;
      }
      const col = line.search(/\S/);
      const scopes = scopesAt(tokens, i, col);
      assert.ok(
        scopes.some((s) => s === 'meta.target.skillscript' || s === 'meta.target.else.skillscript'),
        `${path.basename(file)}:${i + 1} ${scopes.join(' ')}`,
      );
    });
  }
});

test('the fixture tour covers the main constructs', async () => {
  const text = fs.readFileSync(path.join(FIXTURES, 'tour.skill.md'), 'utf8');
  const tokens = await tokensOf(text);
  const all = new Set(tokens.flatMap((tok) => tok.scopes));
  for (const scope of [
    'meta.header.vars.skillscript',
    'meta.template.skillscript',
    'entity.name.function.target.skillscript',
    'keyword.other.needs.skillscript',
    'keyword.control.loop.foreach.skillscript',
    'keyword.control.conditional.else.skillscript',
    'keyword.control.exception.else.skillscript',
    'keyword.other.mutation.skillscript',
    'support.function.typed-op.skillscript',
    'entity.name.namespace.connector.skillscript',
    'string.quoted.triple.skillscript',
    'support.function.filter.skillscript',
    'string.quoted.double.filter-argument.skillscript',
    'meta.secret.skillscript',
    'meta.fallback.skillscript',
    'keyword.operator.comparison.skillscript',
    'keyword.operator.logical.skillscript',
    'comment.line.number-sign.skillscript',
    'keyword.control.default.skillscript',
  ]) {
    assert.ok(all.has(scope), `missing ${scope}`);
  }
});

// randomLine builds a line from skillscript-like fragments.
function randomLine(rand) {
  const parts = ['# ', 'Vars:', '${', '}', '"', '"""', "'", '|trim', ':"x"', '\\"', '(', ')',
    '(fallback:', '->', ' ', '    ', 'if ', 'foreach ', ' in ', '$ ', '$set ', 'emit(', 'X',
    '.a', '{{secret.', '}}', '$(', '==', '=', '[', ']', '{', '#', 'default:', 'else:', 'name:'];
  let line = '';
  const n = Math.floor(rand() * 12);
  for (let i = 0; i < n; i++) {
    line += parts[Math.floor(rand() * parts.length)];
  }
  return line;
}

// seeded returns a small deterministic pseudo-random generator.
function seeded(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

test('arbitrary input tokenizes into contiguous tokens', async () => {
  const rand = seeded(20260101);
  for (let round = 0; round < 150; round++) {
    const lines = Array.from({ length: 8 }, () => randomLine(rand));
    const tokens = await tokensOf(lines.join('\n'));
    lines.forEach((line, i) => {
      const own = tokens.filter((tok) => tok.line === i);
      assert.equal(own.map((tok) => tok.text).join(''), line, `round ${round} line ${i}`);
      own.forEach((tok) => assert.equal(tok.scopes[0], 'source.skillscript'));
    });
  }
});
