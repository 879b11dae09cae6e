import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { readZip, writeZip, type ZipEntry } from '../../../src/browser/zip.js';

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

async function thrown(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const centralRecord = (zip: Buffer) => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
const endRecord = (zip: Buffer) => zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));

/** A JPEG as far as its magic number goes; the rest is incompressible. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(4092)]);

const ENTRIES: ZipEntry[] = [
  { name: 'trace.trace', data: Buffer.from('{"type":"before"}\n'.repeat(500)) },
  { name: 'resources/empty.dat', data: Buffer.alloc(0) },
  { name: 'screencast/frame.jpeg', data: JPEG },
  { name: 'résumé/naïve.txt', data: Buffer.from('ünïcödé ✓ '.repeat(20)) },
];

/** A one-entry archive whose deflated data inflates to `size` zero bytes while its records claim `claimed`. */
async function lyingBomb(size: number, claimed: number): Promise<Buffer> {
  const zip = await writeZip([{ name: 'zeros', data: Buffer.alloc(size) }]);
  zip.writeUInt32LE(claimed, 22); // local header
  zip.writeUInt32LE(claimed, centralRecord(zip) + 24);
  return zip;
}

describe('zip', () => {
  it('reads back what it writes, deflated', async () => {
    const zip = await writeZip(ENTRIES);
    await expect(readZip(zip)).resolves.toEqual(ENTRIES);
    // The 9 kB of trace text shrink to almost nothing; the 4 kB of JPEG noise grow by a few bytes.
    expect(zip.length).toBeLessThan(4096 + 1024);
  });

  it('writes the same bytes for the same entries (no clock in the archive), in any time zone', async () => {
    const first = await writeZip(ENTRIES);
    expect(first.equals(await writeZip(ENTRIES.map((entry) => ({ ...entry, data: Buffer.from(entry.data) }))))).toBe(true);
    // The DOS date is local time: another zone must still write 1980-01-01 00:00 and the same bytes.
    // Node applies a change of process.env.TZ at once; Jest's sandbox copies the environment, so a child process does it.
    const script =
      "const { writeZip } = await import('./src/browser/zip.ts'); const out = [];" +
      "for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/Los_Angeles']) {" +
      "  process.env.TZ = zone; out.push([String(new Date(0)).slice(25), (await writeZip([{ name: 'a.txt', data: Buffer.from('same') }])).toString('hex')]); }" +
      'console.log(JSON.stringify(out));';
    const zones = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, NODE_OPTIONS: '' } }).toString()) as string[][];
    expect(new Set(zones.map(([offset]) => offset)).size).toBe(3);
    expect(new Set(zones.map(([, hex]) => hex))).toEqual(new Set([(await writeZip([{ name: 'a.txt', data: Buffer.from('same') }])).toString('hex')]));
  });

  it('writes archives that Python\'s zipfile opens and verifies', async () => {
    const listing = python(
      'import sys, io, zipfile, json\n' +
        'z = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))\n' +
        'assert z.testzip() is None\n' +
        'print(json.dumps([[i.filename, i.file_size, i.compress_type, i.date_time, len(z.read(i))] for i in z.infolist()]))',
      await writeZip(ENTRIES),
    );
    expect(JSON.parse(listing.toString())).toEqual([
      ['trace.trace', ENTRIES[0].data.length, 8, [1980, 1, 1, 0, 0, 0], ENTRIES[0].data.length],
      ['resources/empty.dat', 0, 8, [1980, 1, 1, 0, 0, 0], 0],
      ['screencast/frame.jpeg', 4096, 8, [1980, 1, 1, 0, 0, 0], 4096],
      ['résumé/naïve.txt', ENTRIES[3].data.length, 8, [1980, 1, 1, 0, 0, 0], ENTRIES[3].data.length],
    ]);
  });

  it('reads archives written by Python: stored, deflated, streamed with data descriptors, with folders, zip64', async () => {
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
      // A zip64 entry: the extra field carries the sizes, the 32-bit fields say 0xffffffff.
      'with z.open("big.txt", "w", force_zip64=True) as f: f.write(b"zip64 " * 10)\n' +
      'z.close()';
    const zip = python(script);
    const entries = await readZip(zip);
    expect(entries.map((entry) => entry.name)).toEqual(['stored.txt', 'dir/deflated.json', 'dir/ünï.bin', 'big.txt']);
    expect(entries[0].data.toString()).toBe('plain '.repeat(100));
    expect(entries[1].data.toString()).toBe('{"a": 1}\n'.repeat(1000));
    expect(entries[2].data.equals(Buffer.from(Array.from({ length: 1024 }, (_, index) => index % 256)))).toBe(true);
    expect(entries[3].data.toString()).toBe('zip64 '.repeat(10));
  });

  it('refuses names that would leave the extraction folder, and names that are not UTF-8', async () => {
    for (const [placeholder, evil] of [
      ['xx/evil.txt', '../evil.txt'],
      ['x/etc/passwd', '/etc/passwdx'],
      ['a/bb/cc/d.txt', 'a/../../d.txt'],
      ['xxwin.ini', 'C:win.ini'],
      ['dir_xx_file', 'dir\\..\\file'],
      ['a_b', 'a\nb'],
    ] as const) {
      const zip = patchName(await writeZip([{ name: placeholder, data: Buffer.from('payload') }]), placeholder, evil);
      expect(await thrown(() => readZip(zip))).toMatchObject({ code: 'zip.invalid', message: expect.stringMatching(/not a safe relative path/) });
    }
    // "café" as Latin-1 writes it: 0xE9 alone is not UTF-8.
    const latin1 = patchName(await writeZip([{ name: 'caf_.txt', data: Buffer.from('x') }]), 'caf_', 'caf?');
    for (const at of [latin1.indexOf('caf?'), latin1.lastIndexOf('caf?')]) latin1[at + 3] = 0xe9;
    expect(await thrown(() => readZip(latin1))).toMatchObject({ code: 'zip.invalid', message: expect.stringMatching(/not UTF-8/) });
    await expect(writeZip([{ name: '../evil.txt', data: Buffer.from('x') }])).rejects.toThrow(/not a safe relative path/);
    await expect(writeZip([{ name: 'a//b.txt', data: Buffer.from('x') }])).rejects.toThrow(/not a safe relative path/);
  });

  it('refuses an entry whose bytes do not match its CRC', async () => {
    const zip = await writeZip([{ name: 'a.txt', data: Buffer.from('the same text, and again: '.repeat(4)) }]);
    // The stored CRC changes, so the data still inflates to its size but its checksum no longer matches.
    const damaged = Buffer.from(zip);
    damaged.writeUInt32LE(zip.readUInt32LE(14) ^ 1, 14);
    damaged.writeUInt32LE(zip.readUInt32LE(centralRecord(zip) + 16) ^ 1, centralRecord(zip) + 16);
    await expect(readZip(damaged)).rejects.toThrow(/fails its CRC check/);
  });

  it('refuses truncated input and things that are not zips, with the zip.invalid code', async () => {
    const zip = await writeZip(ENTRIES);
    for (const cut of [zip.subarray(0, zip.length - 1), zip.subarray(0, zip.length / 2), zip.subarray(0, 10), Buffer.alloc(0), zip.subarray(100)]) {
      expect(await thrown(() => readZip(cut))).toMatchObject({ code: 'zip.invalid', message: expect.stringMatching(/^Not a zip this service reads: /) });
    }
    expect(await thrown(() => readZip(Buffer.from('PK\u0005\u0006 definitely not a zip at all')))).toMatchObject({ code: 'zip.invalid' });
  });

  it('refuses archives whose records declare more than the bound before inflating anything', async () => {
    const bomb = await writeZip([
      { name: 'zeros-1', data: Buffer.alloc(8 * 1024 * 1024) },
      { name: 'zeros-2', data: Buffer.alloc(8 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expect(readZip(bomb, { maxTotalBytes: 10 * 1024 * 1024 })).rejects.toThrow(/inflate to more than 10485760 bytes/);
    await expect(readZip(bomb, { maxTotalBytes: 16 * 1024 * 1024 })).resolves.toHaveLength(2);
  });

  it('stops inflating a bomb whose records lie about its size at the size they claim', async () => {
    // 64 MiB of zeros, twice the bound given, in 64 kB, claiming 1 KiB.
    const data = deflateRawSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    const zip = await lyingBomb(1024, 1024);
    // Splice the bomb's deflate stream in place of the honest one and fix the sizes and offsets around it.
    const honestLength = zip.readUInt32LE(18);
    const spliced = Buffer.concat([zip.subarray(0, 30 + 5), data, zip.subarray(30 + 5 + honestLength)]);
    spliced.writeUInt32LE(data.length, 18);
    spliced.writeUInt32LE(data.length, centralRecord(spliced) + 20);
    spliced.writeUInt32LE(centralRecord(spliced), endRecord(spliced) + 16);
    expect(spliced.length).toBeLessThan(128 * 1024);
    expect(await thrown(() => readZip(spliced, { maxTotalBytes: 32 * 1024 * 1024 }))).toMatchObject({
      code: 'zip.invalid',
      message: expect.stringMatching(/"zeros" does not inflate to its declared size \(too many bytes in the stream/),
    });
    // A claim larger than what is there is caught too.
    await expect(readZip(await lyingBomb(1024, 4096))).rejects.toThrow(/does not inflate to its declared size/);
  });

  it('refuses more entries than allowed before reading them', async () => {
    const many = await writeZip(Array.from({ length: 20 }, (_, index) => ({ name: `e${index}.txt`, data: Buffer.from(String(index)) })));
    await expect(readZip(many, { maxEntries: 19 })).rejects.toThrow(/20 entries, more than the 19 allowed/);
    await expect(readZip(many, { maxEntries: 20 })).resolves.toHaveLength(20);
  });

  it('refuses encryption, other compression methods, multi-disk archives, duplicate names and overlapping entries', async () => {
    const zip = await writeZip([{ name: 'a.txt', data: Buffer.from('hello hello hello hello') }]);
    for (const flag of [0x0001, 0x0040]) {
      const encrypted = Buffer.from(zip);
      encrypted.writeUInt16LE(encrypted.readUInt16LE(6) | flag, 6);
      encrypted.writeUInt16LE(encrypted.readUInt16LE(centralRecord(encrypted) + 8) | flag, centralRecord(encrypted) + 8);
      await expect(readZip(encrypted)).rejects.toThrow(/encrypt/);
    }

    const multiDisk = Buffer.from(zip);
    multiDisk.writeUInt16LE(1, endRecord(multiDisk) + 4);
    await expect(readZip(multiDisk)).rejects.toThrow(/multi-disk/);

    const bzip2 = python(
      'import sys, zipfile\nclass O:\n  def write(s, b): sys.stdout.buffer.write(b); return len(b)\n  def flush(s): pass\n' +
        'z = zipfile.ZipFile(O(), "w", compression=zipfile.ZIP_BZIP2)\nz.writestr("a.txt", "x" * 100)\nz.close()',
    );
    await expect(readZip(bzip2)).rejects.toThrow(/compression method 12/);

    const twice = patchName(await writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'b.txt', data: Buffer.from('2') }]), 'b.txt', 'a.txt');
    await expect(readZip(twice)).rejects.toThrow(/"a.txt" occurs twice/);
    await expect(writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txt', data: Buffer.from('2') }])).rejects.toThrow(/occurs twice/);

    // Two central records pointing at one local header: the second names a.txt's bytes as b.txt.
    const shared = await writeZip([{ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txx', data: Buffer.from('2') }]);
    shared.writeUInt32LE(0, centralRecord(shared) + 42);
    await expect(readZip(shared)).rejects.toThrow(/two entries overlap/);
  });
});
