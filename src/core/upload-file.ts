/**
 * The file an `upload` step sets on a file input: made from its name alone, a few bytes that are a valid file of
 * the kind its extension says (a PNG decodes, a PDF opens, a JSON parses), so an app that checks what it receives
 * accepts it. Deterministic: the same name gives the same bytes at every run and in the generated source.
 */

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface Kind {
  mimeType: string;
  bytes: () => Buffer;
}

const text = (content: string) => () => Buffer.from(content, 'utf8');
const base64 = (content: string) => () => Buffer.from(content, 'base64');

/** A 1×1 PNG and GIF, the smallest well-formed ones (browsers decode them: test/integration/browser/vocabulary.test.ts). */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
/** Chromium's own 1×1 JPEG (an OffscreenCanvas's `convertToBlob`), its ICC profile segment left out. */
const JPEG =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAAD//Z';

/** A one-page PDF with the cross-reference offsets it needs to open without repair. */
function pdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** An empty ZIP archive: its end-of-central-directory record alone. */
const EMPTY_ZIP = () => Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);

const KINDS: Readonly<Record<string, Kind>> = {
  txt: { mimeType: 'text/plain', bytes: text('A test file uploaded by the QA job service.\n') },
  csv: { mimeType: 'text/csv', bytes: text('name,quantity\nExample item,1\n') },
  json: { mimeType: 'application/json', bytes: text('{"example":true}\n') },
  xml: { mimeType: 'application/xml', bytes: text('<?xml version="1.0" encoding="UTF-8"?>\n<example/>\n') },
  html: { mimeType: 'text/html', bytes: text('<!doctype html><title>Example</title><p>Example</p>\n') },
  md: { mimeType: 'text/markdown', bytes: text('# Example\n\nA test file uploaded by the QA job service.\n') },
  svg: { mimeType: 'image/svg+xml', bytes: text('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n') },
  png: { mimeType: 'image/png', bytes: base64(PNG) },
  gif: { mimeType: 'image/gif', bytes: base64(GIF) },
  jpg: { mimeType: 'image/jpeg', bytes: base64(JPEG) },
  jpeg: { mimeType: 'image/jpeg', bytes: base64(JPEG) },
  pdf: { mimeType: 'application/pdf', bytes: pdf },
  zip: { mimeType: 'application/zip', bytes: EMPTY_ZIP },
};

/** Anything else: a few bytes of text, sent as what they are not known to be. */
const OTHER: Kind = { mimeType: 'application/octet-stream', bytes: text('A test file uploaded by the QA job service.\n') };

/** The extension of a file name, lower-cased ('' for none): `Report.PDF` → `pdf`. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The file an upload of `fileName` sets: that name, the type its extension says, and bytes valid for it. */
export function uploadFileFor(fileName: string): UploadFile {
  const kind = Object.hasOwn(KINDS, extensionOf(fileName)) ? KINDS[extensionOf(fileName)]! : OTHER;
  return { name: fileName, mimeType: kind.mimeType, buffer: kind.bytes() };
}
