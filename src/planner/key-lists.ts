/**
 * A list of keys to press, each on a line of its own with what to check after it:
 *
 *   Press these keys one after the other, and after each one check the line under the box:
 *   - B: it should say "You entered: B"
 *   - the left arrow: "You entered: LEFT"
 *   - Delete: "You entered: DELETE", and the box should be empty now
 *
 * Each line is a key pressed, then its checks; a line's check that is only a quoted text is that text on the page.
 * A line whose head names no key is left as written (so "- Email: …" stays what it says), and so is the lead.
 * Written out as plain sentences before the task is cut into clauses: "Press the B key. It should say …".
 */
import { KEY_WORDS } from './clicks.js';

const LEAD = /(^|[.!?]\s+)((?:then\s+|now\s+)?press\s+(?:these|the following|each of these|each of the following|the)\s+keys\b[^.:\n]*):[ \t]*$/i;
const BULLET = /^([ \t]*)(?:[-*•]|\d{1,2}[.)])[ \t]+(.+?):[ \t]+(.+)$/;
const KEY = new RegExp(String.raw`^(?:the\s+)?(?:${KEY_WORDS}|[A-Za-z0-9]|"[A-Za-z0-9]"|'[A-Za-z0-9]')(?:\s+key)?$`, 'i');

export function expandKeyLists(task: string): string {
  const lines = task.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const lead = LEAD.exec(lines[index]!);
    if (lead === null) continue;
    let next = index + 1;
    const pressed: string[] = [];
    for (; next < lines.length; next += 1) {
      const bullet = BULLET.exec(lines[next]!);
      const key = bullet?.[2]!.trim();
      if (bullet === null || key === undefined || !KEY.test(key)) break;
      const named = key.replace(/^the\s+/i, '').replace(/\s+key$/i, '').replace(/^["']|["']$/g, '');
      const checks = bullet[3]!.trim();
      const check = /^["']/.test(checks) ? `Check that the page shows ${checks}` : checks;
      pressed.push(`${bullet[1]!}Press the ${named} key. ${check.replace(/[.!]?$/, '.')}`);
    }
    if (pressed.length === 0) continue;
    // The lead only announces the list: its sentence goes, what came before it on the line stays.
    lines[index] = lines[index]!.slice(0, lead.index + lead[1]!.length).trimEnd();
    lines.splice(index + 1, pressed.length, ...pressed);
    index += pressed.length;
  }
  return lines.join('\n');
}
