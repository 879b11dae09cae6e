import { LogLevel, type Logger } from '@slack/web-api';

/**
 * A logger for Slack's clients (WebClient, InstallProvider, SocketModeClient, Bolt) in tests: it keeps the lines
 * instead of printing them, because tests provoke the failures those clients log as errors.
 */
export function recordingSlackLogger(): Logger & { lines: Array<{ level: LogLevel; text: string }> } {
  const lines: Array<{ level: LogLevel; text: string }> = [];
  let level = LogLevel.DEBUG;
  const at =
    (lineLevel: LogLevel) =>
    (...parts: unknown[]) =>
      void lines.push({ level: lineLevel, text: parts.map(String).join(' ') });
  return {
    lines,
    debug: at(LogLevel.DEBUG),
    info: at(LogLevel.INFO),
    warn: at(LogLevel.WARN),
    error: at(LogLevel.ERROR),
    setLevel: (next) => void (level = next),
    getLevel: () => level,
    setName: () => undefined,
  };
}
