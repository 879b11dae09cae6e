/**
 * Which links the discovery crawl follows, and under what name. Only `http(s)` links on `baseUrl`'s origin (and
 * under its path), never one that would act (sign out, delete, unsubscribe: a GET can have side effects too), never
 * a file download. A link space without end (a calendar's `?month=` for ever, a search's every query) is cut by
 * shape: the first URL of each path with a given set of query names is followed, the others count as variants.
 */
import { sideEffectOf } from './side-effect-of.js';

export interface LinkTarget {
  /** The absolute URL to open, its fragment dropped and its query names sorted. */
  url: string;
  /** What CrawledPage names it: path and query. */
  path: string;
  /** The path with its query names only: `/search?q` for every `/search?q=…`. */
  shape: string;
}

export type LinkVerdict = { kind: 'follow'; target: LinkTarget } | { kind: 'off_site' | 'unsafe' | 'not_a_page' };

const MAX_URL = 2_048;
const FILES = /\.(?:pdf|zip|gz|tgz|rar|7z|dmg|exe|msi|apk|iso|png|jpe?g|gif|webp|svg|ico|mp[34]|mov|avi|webm|wav|ogg|csv|xlsx?|docx?|pptx?|json|xml|txt|woff2?|ttf|css|js|map)$/i;
/** Words of a link that acts instead of showing a page. */
const ACTING = /(?:^|[/_.?=&-])(?:log-?out|logoff|sign-?out|signout|delete|destroy|remove|unsubscribe|cancel|revoke|reset)(?:$|[/_.?=&-])/i;
const ACTING_TEXT = /\b(?:log ?out|log off|sign ?out|delete|destroy|remove|unsubscribe|cancel|revoke|reset)\b/i;

/** `base`'s folder: a crawl of `http://host/app/` stays under `/app/`. */
function scopeOf(base: URL): string {
  return base.pathname.endsWith('/') ? base.pathname : base.pathname.replace(/[^/]*$/, '');
}

export function judgeLink(href: string, text: string, base: URL): LinkVerdict {
  if (href.length > MAX_URL || !URL.canParse(href, base.href)) return { kind: 'not_a_page' };
  const url = new URL(href, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: url.protocol === 'javascript:' ? 'unsafe' : 'not_a_page' };
  if (url.origin !== base.origin || !url.pathname.startsWith(scopeOf(base))) return { kind: 'off_site' };
  if (FILES.test(url.pathname)) return { kind: 'not_a_page' };
  const words = decodeSafely(`${url.pathname}${url.search}`);
  if (ACTING.test(words) || ACTING_TEXT.test(text) || sideEffectOf(`Click ${text.replace(/["'\n]/g, ' ')}.`) !== null) return { kind: 'unsafe' };
  url.hash = '';
  url.searchParams.sort();
  const names = [...new Set([...url.searchParams.keys()])];
  return {
    kind: 'follow',
    target: { url: url.href, path: `${url.pathname}${url.search}`, shape: names.length === 0 ? url.pathname : `${url.pathname}?${names.join('&')}` },
  };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
