/**
 * Wall-clock milliseconds with sub-millisecond resolution, comparable between processes on one machine:
 * `performance.timeOrigin` is the process's start in Unix time, `performance.now()` a monotonic offset from it.
 * The bench checks the offset between processes with a ping (see `clockOffset` in the worker protocol).
 */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
