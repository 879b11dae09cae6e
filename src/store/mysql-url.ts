/** Pure helpers for `mysql://` URLs, shared by config validation and the store (no I/O here). */

/** Database names the service creates and quotes itself: nothing that could need escaping. */
export const SAFE_DATABASE_NAME = /^[A-Za-z0-9_$-]{1,64}$/;

export interface MysqlUrlParts {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Empty when the URL names no database. */
  database: string;
}

/** Splits a `mysql://user:password@host:port/database` URL; user, password and database are percent-decoded. */
export function parseMysqlUrl(url: string): MysqlUrlParts {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? 3306 : Number(parsed.port),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

/** The URL with its password masked, for logs and error messages. */
export function redactUrl(url: string): string {
  if (!URL.canParse(url)) return '(not a URL)';
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
