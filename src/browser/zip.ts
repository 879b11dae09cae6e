import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { AppError, ErrorCode, userError } from '../core/errors.js';

/**
 * Opens a Playwright trace, lets the caller change its entries and writes it back, through yauzl and yazl (the
 * reader and writer Playwright itself writes traces with). The libraries parse and write the format; this module adds
 * what they leave to their caller, because a trace is bytes a page under test influenced: a bound on the entry count
 * and on the total inflated size (checked against the central directory before anything inflates, and held while
 * inflating by yauzl's size validation, so a directory that lies is stopped at its claim), names that stay inside
 * their folder and are valid UTF-8, no encryption, no duplicate or overlapping entries, and the CRC yauzl does not
 * check.
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

const STORED = 0;
const DEFLATED = 8;
const REGULAR_FILE_0644 = 0o100644;

const invalid = (message: string) => userError(ErrorCode.ZipInvalid, `Not a zip this service reads: ${message}`);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Every file entry of `zip` (directory entries carry no data and are left out), in central-directory order. */
export async function readZip(zip: Buffer, limits: ZipReadLimits = {}): Promise<ZipEntry[]> {
  const maxTotal = limits.maxTotalBytes ?? ZIP_MAX_TOTAL_BYTES;
  const maxEntries = limits.maxEntries ?? ZIP_MAX_ENTRIES;
  let archive: yauzl.ZipFile | undefined;
  try {
    // Names stay bytes so a name that is not UTF-8 is refused rather than decoded with replacement characters.
    archive = await yauzl.fromBufferPromise(zip, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: true });
    if (archive.entryCount > maxEntries) throw invalid(`${archive.entryCount} entries, more than the ${maxEntries} allowed`);
    const records: { entry: yauzl.Entry; name: string }[] = [];
    const names = new Set<string>();
    let declaredTotal = 0;
    for await (const entry of archive.eachEntry()) {
      const name = decodeName(entry.fileName as unknown as Buffer);
      // Bit 0 is traditional PKWARE encryption, bit 6 strong encryption; method 99 is WinZip AES.
      if (entry.isEncrypted() || entry.generalPurposeBitFlag & 0x40 || entry.compressionMethod === 99) throw invalid(`the entry ${JSON.stringify(name)} is encrypted`);
      if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) throw invalid(`the entry ${JSON.stringify(name)} uses compression method ${entry.compressionMethod}`);
      if (names.has(name)) throw invalid(`the name ${JSON.stringify(name)} occurs twice`);
      names.add(name);
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > maxTotal) throw invalid(`its entries inflate to more than ${maxTotal} bytes`);
      records.push({ entry, name });
    }
    await refuseOverlaps(archive, records);
    const entries: ZipEntry[] = [];
    for (const { entry, name } of records) {
      if (name.endsWith('/')) continue;
      entries.push({ name, data: await inflate(archive, entry, name) });
    }
    return entries;
  } catch (error) {
    if (error instanceof AppError) throw error;
    // yauzl's messages say what is wrong ("invalid relative path", "multi-disk zip files are not supported", ...).
    throw userError(ErrorCode.ZipInvalid, `Not a zip this service reads: ${(error as Error).message}`, { cause: error });
  } finally {
    archive?.close();
  }
}

/**
 * A zip of `entries` in the given order, every entry deflated, with no timestamps. Deflating everything is what
 * Playwright does too: its screencast JPEGs still shrink by about a tenth, and incompressible data grows by 5 bytes
 * per 64 KiB block.
 */
export async function writeZip(entries: readonly ZipEntry[]): Promise<Buffer> {
  const names = new Set<string>();
  const archive = new yazl.ZipFile();
  // 1980-01-01 00:00:00, the earliest DOS time, which yazl encodes from local time (so it is built here, in the zone
  // of the moment): written entries carry no clock, so the same input makes the same zip.
  const mtime = new Date(1980, 0, 1, 0, 0, 0);
  for (const entry of entries) {
    checkName(entry.name);
    if (entry.name.endsWith('/')) throw invalid(`the entry name ${JSON.stringify(entry.name)} names a folder`);
    if (names.has(entry.name)) throw invalid(`the name ${JSON.stringify(entry.name)} occurs twice`);
    names.add(entry.name);
    archive.addBuffer(entry.data, entry.name, { mtime, forceDosTimestamp: true, mode: REGULAR_FILE_0644, compress: true });
  }
  archive.end();
  const chunks: Buffer[] = [];
  for await (const chunk of archive.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Names a reader could be tricked by on extraction: absolute, `..`, backslashes, drive letters, control characters. */
function checkName(name: string): void {
  const path = name.endsWith('/') ? name.slice(0, -1) || '/' : name;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (path === '' || yauzl.validateFileName(path) !== null || /[\u0000-\u001f\u007f]/.test(path)) {
    throw invalid(`the entry name ${JSON.stringify(name)} is not a safe relative path`);
  }
  if (path.split('/').some((segment) => segment === '.' || segment === '')) throw invalid(`the entry name ${JSON.stringify(name)} is not a safe relative path`);
}

/** UTF-8 whether or not bit 11 says so: Info-ZIP writes UTF-8 names unflagged, and ASCII is the same in CP437. */
function decodeName(raw: Buffer): string {
  let name: string;
  try {
    name = utf8.decode(raw);
  } catch {
    throw invalid('an entry name is not UTF-8');
  }
  checkName(name);
  return name;
}

/**
 * Entries that share bytes are how non-recursive zip bombs multiply a small archive
 * (https://www.bamsoftware.com/hacks/zipbomb/); yauzl reads each entry where its record points and does not compare.
 */
async function refuseOverlaps(archive: yauzl.ZipFile, records: readonly { entry: yauzl.Entry }[]): Promise<void> {
  const spans: { start: number; end: number }[] = [];
  for (const { entry } of records) {
    const { fileDataStart } = await archive.readLocalFileHeaderPromise(entry, { minimal: true });
    spans.push({ start: entry.relativeOffsetOfLocalHeader, end: fileDataStart + entry.compressedSize });
  }
  spans.sort((a, b) => a.start - b.start);
  for (let index = 1; index < spans.length; index++) {
    if (spans[index].start < spans[index - 1].end) throw invalid('two entries overlap');
  }
}

/** yauzl stops the stream as soon as it yields more than the declared size, so memory stays within the checked total. */
async function inflate(archive: yauzl.ZipFile, entry: yauzl.Entry, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await archive.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
  } catch (error) {
    const reason = (error as Error).message;
    throw userError(ErrorCode.ZipInvalid, `Not a zip this service reads: the entry ${JSON.stringify(name)} does not inflate to its declared size (${reason})`, { cause: error });
  }
  const data = Buffer.concat(chunks);
  if (crc32(data) !== entry.crc32) throw invalid(`the entry ${JSON.stringify(name)} fails its CRC check`);
  return data;
}
