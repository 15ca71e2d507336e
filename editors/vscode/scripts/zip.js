'use strict';

// zip.js reads the central directory of a zip archive (a .vsix is one) and
// returns the entry names, without any third-party module.

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_MIN_SIZE = 22;
const MAX_COMMENT = 0xffff;

// findEndOfCentralDirectory returns the offset of the end record.
function findEndOfCentralDirectory(buf) {
  const stop = Math.max(0, buf.length - EOCD_MIN_SIZE - MAX_COMMENT);
  for (let i = buf.length - EOCD_MIN_SIZE; i >= stop; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIGNATURE) {
      return i;
    }
  }
  throw new Error('not a zip archive: no end of central directory record');
}

// listZip returns the names of all entries in the archive held by buf.
function listZip(buf) {
  if (!Buffer.isBuffer(buf) || buf.length < EOCD_MIN_SIZE) {
    throw new Error('not a zip archive: too short');
  }
  const eocd = findEndOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > buf.length || buf.readUInt32LE(offset) !== CENTRAL_SIGNATURE) {
      throw new Error(`corrupt zip archive: bad central directory entry ${i}`);
    }
    const nameLength = buf.readUInt16LE(offset + 28);
    const extraLength = buf.readUInt16LE(offset + 30);
    const commentLength = buf.readUInt16LE(offset + 32);
    names.push(buf.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

module.exports = { listZip };
