/** Where a client verb writes: its result on stdout, messages for the person at the keyboard on stderr. */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True on a terminal: the live renderings (progress line) are only drawn then. */
  isTTY?: boolean;
  /** The terminal's width, where known. */
  columns?: number;
}

export interface Terminal {
  stdout: OutputStream;
  stderr: OutputStream;
}

export function processTerminal(): Terminal {
  return { stdout: process.stdout, stderr: process.stderr };
}

/** A result body on stdout, as indented JSON (what `jq` and a reader both take). */
export function printJson(stream: OutputStream, body: unknown): void {
  stream.write(`${JSON.stringify(body, null, 2)}\n`);
}

/**
 * Text from the server, made safe to print: C0 and C1 control characters (escape sequences, carriage returns,
 * line breaks) become `\uXXXX`, so a value can neither break a line nor drive the terminal.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
