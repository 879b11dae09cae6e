import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { InvalidArgumentError } from 'commander';
import { ErrorCode, userError } from '../../core/errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `--timeout 90s`, `15m`, `1h`, `500ms`, or a bare number of seconds; at most a day. */
export function duration(value: string): number {
  const match = /^([0-9]{1,9})(ms|s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * UNITS[match[2] ?? 's']! : Number.NaN;
  if (!(ms >= 1_000 && ms <= 86_400_000)) throw new InvalidArgumentError('must be a duration from 1s to 24h, like 90s, 15m or 1h');
  return ms;
}

/** `--parallel <n>`: 1 to 32 replays at once. */
export function parallelism(value: string): number {
  if (!/^[0-9]{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 32) throw new InvalidArgumentError('must be a whole number from 1 to 32');
  return Number(value);
}

/** Repository paths, one per line (`git diff --name-only` output); blank lines and surrounding spaces dropped. */
export function pathsOf(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== ''))];
}

/** The files changed since `ref`, as git in the current folder says (`git diff --name-only <ref>...HEAD`). */
export async function changedSince(ref: string, cwd = process.cwd()): Promise<string[]> {
  if (ref.startsWith('-')) throw userError(ErrorCode.CliUsage, `--since must be a git ref, not an option (${JSON.stringify(ref)})`);
  try {
    const { stdout } = await promisify(execFile)('git', ['diff', '--name-only', '--no-renames', `${ref}...HEAD`, '--'], { cwd, maxBuffer: 64 * 1024 * 1024 });
    return pathsOf(stdout);
  } catch (error) {
    const reason = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    throw userError(ErrorCode.CliUsage, `--since ${ref}: git could not list the changed files: ${reason}`);
  }
}

/** `--changed-files <file>`: the file's paths, one per line. */
export async function changedFilesFrom(file: string): Promise<string[]> {
  try {
    return pathsOf(await readFile(file, 'utf8'));
  } catch (error) {
    throw userError(ErrorCode.CliUsage, `--changed-files ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
