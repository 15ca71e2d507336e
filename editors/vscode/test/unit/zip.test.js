'use strict';

// zip.test.js checks the zip directory reader on archives built here.

const test = require('node:test');
const assert = require('node:assert/strict');
const { listZip } = require('../../scripts/zip');

// storedZip builds a zip archive with uncompressed entries.
function storedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, body] of entries) {
    const nameBuf = Buffer.from(name, 'utf8');
    const data = Buffer.from(body, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

test('listZip returns every entry name in order', () => {
  const zip = storedZip([['extension/package.json', '{}'], ['extension/src/é.js', 'x'], ['a', '']]);
  assert.deepEqual(listZip(zip), ['extension/package.json', 'extension/src/é.js', 'a']);
});

test('listZip handles an empty archive', () => {
  assert.deepEqual(listZip(storedZip([])), []);
});

test('listZip rejects data that is not a zip', () => {
  assert.throws(() => listZip(Buffer.from('hello')), /too short/);
  assert.throws(() => listZip(Buffer.alloc(64)), /no end of central directory/);
  assert.throws(() => listZip('not a buffer'), /too short/);
  const zip = storedZip([['a', 'b']]);
  zip.writeUInt32LE(0, 31); // damage the central directory signature
  assert.throws(() => listZip(zip), /corrupt zip archive/);
});
