/**
 * Playwright's role and accessible name of an element, read from the first line of its ARIA snapshot
 * (`- button "Say \"hi\""` → `{ role: 'button', name: 'Say "hi"' }`). The name is quoted as a JSON string; one with an
 * escape JSON does not know is kept as written. Undefined for an empty snapshot. One reading for every caller (the
 * side-effect guard, the sign-in submit, healing), so a control has the same name in each.
 */
export function roleAndNameOf(snapshot: string): { role: string; name: string } | undefined {
  const first = /^-\s+([\w-]+)(?:\s+"((?:[^"\\]|\\.)*)")?/.exec((snapshot.split('\n')[0] ?? '').trim());
  if (first === null) return undefined;
  const quoted = first[2] ?? '';
  let name = quoted;
  try {
    name = JSON.parse(`"${quoted}"`) as string;
  } catch {
    // Kept as written.
  }
  return { role: first[1]!, name };
}
