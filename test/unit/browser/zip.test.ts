import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { crc32, readZip, writeZip, type ZipEntry } from '../../../src/browser/zip.js';

/** Runs a Python snippet (python3 is part of the test image) with the zip on stdin or out. */
function python(script: string, input?: Buffer): Buffer {
  return execFileSync('python3', ['-c', script], { input, maxBuffer: 64 * 1024 * 1024 });
}

/** Renames an entry in place, in its local header and its central record (same length, so offsets hold). */
function patchName(zip: Buffer, from: string, to: string): Buffer {
  expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
  const out = Buffer.from(zip);
  let at = out.indexOf(from);
  let patched = 0;
  while (at !== -1) {
    out.write(to, at);
    patched += 1;
    at = out.indexOf(from, at + 1);
  }
  expect(patched).toBe(2);
  return out;
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const centralRecord = (zip: Buffer) => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
const endRecord = (zip: Buffer) => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

const ENTRIES: ZipEntry[] = [
  { name: 'trace.trace', data: Buffer.from('{"type":"before"}\n'.repeat(500)) },
  { name: 'resources/empty.dat', data: Buffer.alloc(0) },
  { name: 'screencast/frame.jpeg', data: randomBytes(4096) },
  { name: 'résumé/naïve.txt', data: Buffer.from('ünïcödé ✓') },
];

describe('zip', () => {
  it('reads back what it writes, deflating what shrinks and storing what does not', () => {
    const zip = writeZip(ENTRIES);
    expect(readZip(zip)).toEqual(ENTRIES);
    // The 9 kB of trace text shrink to almost nothing; the 4 kB of random bytes are stored, not grown.
    expect(zip.length).toBeLessThan(4096 + 1024);
  });

  it('writes the same bytes for the same entries (no clock in the archive)', () => {
    expect(writeZip(ENTRIES).equals(writeZip(ENTRIES.map((entry) => ({ ...entry, data: Buffer.from(entry.data) }))))).toBe(true);
  });

  it('writes archives that Python\'s zipfile opens and verifies', () => {
    const listing = python(
      'import sys, io, zipfile, json\n' +
        'z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))\n' +
        'assert z.testzip() is None\n' +
        'print(json.dumps([[i.filename, i.file_size, i.compress_type, i.date_time[0], len(z.read(i))] for i in z.infolist()]))',
      writeZip(ENTRIES),
    );
    expect(JSON.parse(listing.toString())).toEqual([
      ['trace.trace', ENTRIES[0].data.length, 8, 1980, ENTRIES[0].data.length],
      ['resources/empty.dat', 0, 0, 1980, 0],
      ['screencast/frame.jpeg', 4096, 0, 1980, 4096],
      ['résumé/naïve.txt', ENTRIES[3].data.length, 0, 1980, ENTRIES[3].data.length], // too short to gain from deflate
    ]);
  });

  it('reads archives written by Python: stored, deflated, streamed with data descriptors, with folders', () => {
    const script =
      'import sys, zipfile\n' +
      'class Out:\n' +
      '  def write(self, b): sys.stdout.buffer.write(b); return len(b)\n' +
      '  def flush(self): pass\n' +
      // Not seekable, so zipfile writes data descriptors after each entry (general purpose bit 3).
      'z = zipfile.ZipFile(Out(), "w")\n' +
      'z.writestr("stored.txt", "plain " * 100, compress_type=zipfile.ZIP_STORED)\n' +
      'z.writestr("dir/", "")\n' +
      'z.writestr("dir/deflated.json", "{\\"a\\": 1}\\n" * 1000, compress_type=zipfile.ZIP_DEFLATED)\n' +
      'z.writestr("dir/ünï.bin", bytes(range(256)) * 4, compress_type=zipfile.ZIP_DEFLATED)\n' +
      'z.close()';
    const zip = python(script);
    const entries = readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['stored.txt', 'dir/deflated.json', 'dir/ünï.bin']);
    expect(entries[0].data.toString()).toBe('plain '.repeat(100));
    expect(entries[1].data.toString()).toBe('{"a": 1}\n'.repeat(1000));
    expect(entries[2].data.equals(Buffer.from(Array.from({ length: 1024 }, (_, index) => index % 256)))).toBe(true);
  });

  it('refuses names that would leave the extraction folder', () => {
    for (const [placeholder, evil] of [
      ['xx/evil.txt', '../evil.txt'],
      ['x/etc/passwd', '/etc/passwdx'],
      ['a/bb/cc/d.txt', 'a/../../d.txt'],
      ['xxwin.ini', 'C:win.ini'],
      ['dir_xx_file', 'dir\\..\\file'],
    ] as const) {
      const zip = patchName(writeZip([{ name: placeholder, data: Buffer.from('payload') }]), placeholder, evil);
      expect(thrown(() => readZip(zip))).toMatchObject({ code: 'zip.invalid', message: expect.stringMatching(/not a safe relative path|leaves its folder/) });
    }
    expect(() => writeZip([{ name: '../evil.txt', data: Buffer.from('x') }])).toThrow(/leaves its folder/);
  });

  it('refuses an entry whose bytes do not match its CRC', () => {
    const zip = writeZip([{ name: 'a.bin', data: randomBytes(64) }]); // incompressible: stored as is
    const damaged = Buffer.from(zip);
    damaged[30 + 'a.bin'.length + 10] ^= 0xff;
    expect(() => readZip(damaged)).toThrow(/fails its CRC check/);
  });

  it('refuses truncated input and things that are not zips', () => {
    const zip = writeZip(ENTRIES);
    for (const cut of [zip.subarray(0, zip.length - 1), zip.subarray(0, zip.length / 2), zip.subarray(0, 10), Buffer.alloc(0)]) {
      expect(() => readZip(cut)).toThrow(/no end-of-central-directory record|too few/);
    }
    expect(() => readZip(zip.subarray(100))).toThrow(/outside the archive/);
    expect(() => readZip(Buffer.from('PK\u0005\u0006 definitely not a zip at all'))).toThrow(/zip\.invalid|Not a zip/);
  });

  it('refuses archives that inflate beyond the bound before inflating anything, and headers that lie about sizes', () => {
    const bomb = writeZip([
      { name: 'zeros-1', data: Buffer.alloc(8 * 1024 * 1024) },
      { name: 'zeros-2', data: Buffer.alloc(8 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => readZip(bomb, { maxTotalBytes: 10 * 1024 * 1024 })).toThrow(/inflate to more than 10485760 bytes/);
    expect(readZip(bomb, { maxTotalBytes: 16 * 1024 * 1024 })).toHaveLength(2);

    // A central record that claims 1 KiB for what inflates to 1 MiB: inflating stops at the claim.
    const liar = writeZip([{ name: 'zeros', data: Buffer.alloc(1024 * 1024) }]);
    liar.writeUInt32LE(1024, centralRecord(liar) + 24);
    expect(() => readZip(liar)).toThrow(/does not inflate to its declared size/);
  });

  it('refuses zip64, encryption, other compression methods, duplicate names and overlapping entries', () => {
    const zip = writeZip([{ name: 'a.txt', data: Buffer.from('hello hello hello hello') }]);
    const zip64 = Buffer.from(zip);
    zip64.writeUInt16LE(0xffff, endRecord(zip64) + 10);
    zip64.writeUInt16LE(0xffff, endRecord(zip64) + 8);
    expect(() => readZip(zip64)).toThrow(/zip64/);

    const encrypted = Buffer.from(zip);
    encrypted.writeUInt16LE(encrypted.readUInt16LE(centralRecord(encrypted) + 8) | 1, centralRecord(encrypted) + 8);
    expect(() => readZip(encrypted)).toThrow(/is encrypted/);

    const bzip2 = python(
      'import sys, zipfile\nclass O:\n  def write(s, b): sys.stdout.buffer.write(b); return len(b)\n  def flush(s): pass\n' +
        'z = zipfile.ZipFile(O(), "w", compression=zipfile.ZIP_BZIP2)\nz.writestr("a.txt", "x" * 100)\nz.close()',
    );
    expect(() => readZip(bzip2)).toThrow(/compression method 12/);

    const twice = patchName(writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'b.txt', data: Buffer.from('2') }]), 'b.txt', 'a.txt');
    expect(() => readZip(twice)).toThrow(/"a.txt" occurs twice/);
    expect(() => writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txt', data: Buffer.from('2') }])).toThrow(/occurs twice/);

    // Two central records pointing at one local header: the second names a.txt's bytes as b.txt.
    const shared = writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txx', data: Buffer.from('2') }]);
    const second = centralRecord(shared);
    shared.writeUInt32LE(0, second + 42);
    expect(() => readZip(shared)).toThrow(/names another file/);
  });

  it('computes the standard CRC-32', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
    expect(crc32(Buffer.alloc(0))).toBe(0);
  });
});
