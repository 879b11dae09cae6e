import { describe, expect, it } from '@jest/globals';
import { extensionOf, uploadFileFor } from '../../../src/core/upload-file.js';

describe('uploadFileFor', () => {
  it('gives the same name, type and bytes for the same name every time', () => {
    const first = uploadFileFor('receipt.pdf');
    const second = uploadFileFor('receipt.pdf');
    expect(second).toEqual(first);
    expect(second.buffer.equals(first.buffer)).toBe(true);
  });

  it.each([
    ['notes.txt', 'text/plain'],
    ['items.CSV', 'text/csv'],
    ['data.json', 'application/json'],
    ['photo.png', 'image/png'],
    ['photo.jpeg', 'image/jpeg'],
    ['photo.jpg', 'image/jpeg'],
    ['anim.gif', 'image/gif'],
    ['Report (final).pdf', 'application/pdf'],
    ['archive.zip', 'application/zip'],
    ['README', 'application/octet-stream'],
    ['.env', 'application/octet-stream'],
    ['model.bin', 'application/octet-stream'],
  ])('types %s as %s by its extension, keeping the name as given', (name, mimeType) => {
    expect(uploadFileFor(name)).toMatchObject({ name, mimeType });
    expect(uploadFileFor(name).buffer.length).toBeGreaterThan(0);
  });

  it('makes text files a parser accepts', () => {
    expect(JSON.parse(uploadFileFor('a.json').buffer.toString('utf8'))).toEqual({ example: true });
    expect(uploadFileFor('a.csv').buffer.toString('utf8').trim().split('\n').map((line) => line.split(','))).toEqual([
      ['name', 'quantity'],
      ['Example item', '1'],
    ]);
    expect(uploadFileFor('a.txt').buffer.toString('utf8')).toMatch(/^A test file/);
  });

  it('makes images and archives that start with their format signatures', () => {
    expect([...uploadFileFor('a.png').buffer.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(uploadFileFor('a.gif').buffer.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect([...uploadFileFor('a.jpg').buffer.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(uploadFileFor('a.zip').buffer.subarray(0, 4).toString('latin1')).toBe('PK\u0005\u0006');
  });

  it('makes a PDF whose cross-reference table points at its objects', () => {
    const pdf = uploadFileFor('a.pdf').buffer.toString('latin1');
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    expect(offsets.map((offset) => pdf.slice(offset, offset + 7))).toEqual(['1 0 obj', '2 0 obj', '3 0 obj']);
  });
});

describe('extensionOf', () => {
  it('is the lower-cased part after the last dot, empty for none or a leading dot only', () => {
    expect([extensionOf('a.tar.GZ'), extensionOf('README'), extensionOf('.env'), extensionOf('x.')]).toEqual(['gz', '', '', '']);
  });
});
