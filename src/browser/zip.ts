import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ErrorCode, userError } from '../core/errors.js';

/**
 * Just enough of the zip format (APPNOTE.TXT, https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT) to open a
 * Playwright trace, change entries and write it back: stored and deflated entries, no zip64, no encryption, no
 * multi-disk archives. The reader trusts nothing it reads: names, sizes, offsets and checksums are all checked, and
 * the total it will inflate is bounded (a zip bomb is rejected before any inflating).
 */
export interface ZipEntry {
  /** Path inside the archive, `/`-separated, relative, never with `..` segments. */
  name: string;
  data: Buffer;
}

export interface ZipReadLimits {
  /** The most bytes all entries may inflate to together. */
  maxTotalBytes?: number;
  maxEntries?: number;
}

export const ZIP_MAX_TOTAL_BYTES = 200 * 1024 * 1024;
const ZIP_MAX_ENTRIES = 50_000;

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const STORED = 0;
const DEFLATED = 8;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
/** 1980-01-01 00:00:00, the earliest DOS time: written entries carry no clock, so the same input makes the same zip. */
const DOS_DATE_1980 = (0 << 9) | (1 << 5) | 1;
const VERSION_20 = 20;
/** "Made by" Unix, so the external attributes below mean rw-r--r-- regular files to unzip. */
const MADE_BY_UNIX = (3 << 8) | VERSION_20;
const REGULAR_FILE_0644 = (0o100644 << 16) >>> 0;

const invalid = (message: string) => userError(ErrorCode.ZipInvalid, `Not a zip this service reads: ${message}`);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Every file entry of `zip` (directory entries carry no data and are left out), in central-directory order. */
export function readZip(zip: Buffer, limits: ZipReadLimits = {}): ZipEntry[] {
  const maxTotal = limits.maxTotalBytes ?? ZIP_MAX_TOTAL_BYTES;
  const maxEntries = limits.maxEntries ?? ZIP_MAX_ENTRIES;
  const end = findEndOfCentralDirectory(zip);
  const disk = zip.readUInt16LE(end + 4);
  const cdDisk = zip.readUInt16LE(end + 6);
  const diskEntries = zip.readUInt16LE(end + 8);
  const count = zip.readUInt16LE(end + 10);
  const cdSize = zip.readUInt32LE(end + 12);
  const cdOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff || (end >= 20 && zip.readUInt32LE(end - 20) === ZIP64_END_LOCATOR)) {
    throw invalid('zip64 archives are not supported');
  }
  if (disk !== 0 || cdDisk !== 0 || diskEntries !== count) throw invalid('multi-disk archives are not supported');
  if (count > maxEntries) throw invalid(`${count} entries, more than the ${maxEntries} allowed`);
  if (cdOffset + cdSize > end) throw invalid('the central directory lies outside the archive');

  const records: CentralRecord[] = [];
  let at = cdOffset;
  let declaredTotal = 0;
  for (let index = 0; index < count; index++) {
    const record = readCentralRecord(zip, at, cdOffset + cdSize);
    at = record.next;
    declaredTotal += record.size;
    if (declaredTotal > maxTotal) throw invalid(`its entries inflate to more than ${maxTotal} bytes`);
    records.push(record);
  }
  if (at !== cdOffset + cdSize) throw invalid('the central directory size does not match its entries');
  const names = new Set<string>();
  for (const record of records) {
    if (names.has(record.name)) throw invalid(`the name ${JSON.stringify(record.name)} occurs twice`);
    names.add(record.name);
  }
  const spans = records.map((record) => ({ record, ...locateData(zip, record, cdOffset) }));
  // Entries that share bytes are how non-recursive zip bombs multiply a small archive (https://www.bamsoftware.com/hacks/zipbomb/).
  const sorted = [...spans].sort((a, b) => a.header - b.header);
  for (let index = 1; index < sorted.length; index++) {
    if (sorted[index].header < sorted[index - 1].dataEnd) throw invalid('two entries overlap');
  }
  return spans
    .filter(({ record }) => !record.name.endsWith('/'))
    .map(({ record, dataStart, dataEnd }) => ({ name: record.name, data: inflate(zip.subarray(dataStart, dataEnd), record) }));
}

/** A zip of `entries` in the given order: deflated where that makes them smaller, stored otherwise; no timestamps. */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  if (entries.length >= 0xffff) throw invalid(`${entries.length} entries need zip64, which is not written`);
  const names = new Set<string>();
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    checkName(entry.name);
    if (names.has(entry.name)) throw invalid(`the name ${JSON.stringify(entry.name)} occurs twice`);
    names.add(entry.name);
    const name = Buffer.from(entry.name, 'utf8');
    const deflated = deflateRawSync(entry.data);
    const [method, body] = deflated.length < entry.data.length ? [DEFLATED, deflated] : [STORED, entry.data];
    const crc = crc32(entry.data);
    if (entry.data.length >= 0xffffffff || offset + 30 + name.length + body.length >= 0xffffffff) throw invalid('the archive would need zip64, which is not written');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_20, 4);
    local.writeUInt16LE(FLAG_UTF8, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(DOS_DATE_1980, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(CENTRAL_HEADER, 0);
    record.writeUInt16LE(MADE_BY_UNIX, 4);
    record.writeUInt16LE(VERSION_20, 6);
    local.copy(record, 8, 6, 28); // flags, method, time, date, crc, sizes, name length: as in the local header
    // extra length, comment length, disk, internal attributes: 0
    record.writeUInt32LE(REGULAR_FILE_0644, 38);
    record.writeUInt32LE(offset, 42);
    parts.push(local, name, body);
    central.push(record, name);
    offset += local.length + name.length + body.length;
  }
  const cdSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(EOCD_SIZE);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of zip (and gzip, PNG): reflected polynomial 0xEDB88320. */
export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let index = 0; index < data.length; index++) crc = CRC_TABLE[(crc ^ data[index]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Names a reader could be tricked by on extraction: absolute, `..`, backslashes, drive letters, control characters. */
function checkName(name: string): void {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name) || /[\u0000-\u001f\u007f]/.test(name)) {
    throw invalid(`the entry name ${JSON.stringify(name)} is not a safe relative path`);
  }
  if (name.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw invalid(`the entry name ${JSON.stringify(name)} leaves its folder`);
  }
}

function findEndOfCentralDirectory(zip: Buffer): number {
  if (zip.length < EOCD_SIZE) throw invalid(`${zip.length} bytes are too few for a zip`);
  // The record is the last thing in the file, followed only by its comment (at most 65,535 bytes).
  const lowest = Math.max(0, zip.length - EOCD_SIZE - 0xffff);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY && at + EOCD_SIZE + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  throw invalid('no end-of-central-directory record (truncated, or not a zip)');
}

interface CentralRecord {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  next: number;
}

function readCentralRecord(zip: Buffer, at: number, limit: number): CentralRecord {
  if (at + 46 > limit || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw invalid('a central directory record is damaged');
  const flags = zip.readUInt16LE(at + 8);
  const method = zip.readUInt16LE(at + 10);
  const crc = zip.readUInt32LE(at + 16);
  const compressedSize = zip.readUInt32LE(at + 20);
  const size = zip.readUInt32LE(at + 24);
  const nameLength = zip.readUInt16LE(at + 28);
  const next = at + 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  const disk = zip.readUInt16LE(at + 34);
  const localOffset = zip.readUInt32LE(at + 42);
  if (next > limit) throw invalid('a central directory record runs past the directory');
  const name = decodeName(zip.subarray(at + 46, at + 46 + nameLength));
  if (compressedSize === 0xffffffff || size === 0xffffffff || localOffset === 0xffffffff || disk === 0xffff) throw invalid('zip64 entries are not supported');
  if (disk !== 0) throw invalid('multi-disk archives are not supported');
  // Bit 0 is traditional PKWARE encryption, bit 6 strong encryption; method 99 is WinZip AES.
  if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION) || method === 99) throw invalid(`the entry ${JSON.stringify(name)} is encrypted`);
  if (method !== STORED && method !== DEFLATED) throw invalid(`the entry ${JSON.stringify(name)} uses compression method ${method}`);
  if (method === STORED && compressedSize !== size) throw invalid(`the stored entry ${JSON.stringify(name)} has two sizes`);
  return { name, flags, method, crc, compressedSize, size, localOffset, next };
}

/** UTF-8 whether or not bit 11 says so: Info-ZIP writes UTF-8 names unflagged, and ASCII is the same in CP437. */
function decodeName(raw: Buffer): string {
  let name: string;
  try {
    name = utf8.decode(raw);
  } catch {
    throw invalid('an entry name is not UTF-8');
  }
  checkName(name.endsWith('/') ? name.slice(0, -1) || '/' : name);
  return name;
}

/** Where an entry's data is, from its local header (whose name and extra field lengths may differ from the central record). */
function locateData(zip: Buffer, record: CentralRecord, cdOffset: number): { header: number; dataStart: number; dataEnd: number } {
  const header = record.localOffset;
  if (header + 30 > cdOffset || zip.readUInt32LE(header) !== LOCAL_HEADER) throw invalid(`the local header of ${JSON.stringify(record.name)} is missing`);
  const nameLength = zip.readUInt16LE(header + 26);
  const dataStart = header + 30 + nameLength + zip.readUInt16LE(header + 28);
  const dataEnd = dataStart + record.compressedSize;
  if (dataEnd > cdOffset) throw invalid(`the data of ${JSON.stringify(record.name)} runs past the archive`);
  if (!zip.subarray(header + 30, header + 30 + nameLength).equals(Buffer.from(record.name, 'utf8'))) {
    throw invalid(`the local header of ${JSON.stringify(record.name)} names another file`);
  }
  return { header, dataStart, dataEnd };
}

function inflate(raw: Buffer, record: CentralRecord): Buffer {
  let data: Buffer;
  if (record.method === STORED) {
    data = Buffer.from(raw);
  } else {
    try {
      // The declared size bounds the output: a lying header cannot make this inflate more than was allowed.
      data = inflateRawSync(raw, { maxOutputLength: Math.max(1, record.size) });
    } catch (error) {
      throw userError(ErrorCode.ZipInvalid, `Not a zip this service reads: the entry ${JSON.stringify(record.name)} does not inflate to its declared size`, { cause: error });
    }
  }
  if (data.length !== record.size) throw invalid(`the entry ${JSON.stringify(record.name)} is not its declared size`);
  if (crc32(data) !== record.crc) throw invalid(`the entry ${JSON.stringify(record.name)} fails its CRC check`);
  return data;
}
