/**
 * The connect form's multi-line fields as the API takes them: the allowlist one host a line, test-value secrets
 * `name=ENV_NAME` a line, evidence probes `criterion=urlValueRef,tokenValueRef` a line. Blank lines and surrounding
 * spaces are ignored; a line that does not read is named by its number so the form can say which.
 */

export interface Parsed<T> {
  value: T;
  /** `line 2: …` messages, empty when every line read. */
  problems: string[];
}

export function parseLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function parsePairs<T>(text: string, read: (key: string, rest: string) => T | undefined, shape: string): Parsed<Record<string, T>> {
  const value: Record<string, T> = {};
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    const equals = line.indexOf('=');
    const key = equals > 0 ? line.slice(0, equals).trim() : '';
    const item = equals > 0 ? read(key, line.slice(equals + 1).trim()) : undefined;
    if (key === '' || item === undefined) problems.push(`line ${index + 1}: write ${shape}`);
    else if (Object.hasOwn(value, key)) problems.push(`line ${index + 1}: ${key} is given twice`);
    else Object.defineProperty(value, key, { value: item, enumerable: true, writable: true, configurable: true });
  });
  return { value, problems };
}

/** `name=ENV_NAME` lines into testValueSecretRefs. */
export function parseSecretRefs(text: string): Parsed<Record<string, string>> {
  return parsePairs(text, (_key, rest) => (rest === '' ? undefined : rest), 'name=ENV_NAME');
}

/** `criterion=urlValueRef,tokenValueRef` lines into evidenceProbeRefs. */
export function parseProbeRefs(text: string): Parsed<Record<string, { urlValueRef: string; tokenValueRef: string }>> {
  return parsePairs(
    text,
    (_key, rest) => {
      const [urlValueRef, tokenValueRef, extra] = rest.split(',').map((part) => part.trim());
      return urlValueRef && tokenValueRef && extra === undefined ? { urlValueRef, tokenValueRef } : undefined;
    },
    'criterion=urlValueRef,tokenValueRef',
  );
}

/** The stored refs back as the lines the form shows. */
export function secretRefLines(refs: Record<string, string>): string {
  return Object.entries(refs)
    .map(([name, env]) => `${name}=${env}`)
    .join('\n');
}
