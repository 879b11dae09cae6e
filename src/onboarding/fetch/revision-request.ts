import { ErrorCode, userError } from '../../core/errors.js';

/** What onboarding asks for: a repository as connected, and the revision to read (null: the default branch's head). */
export interface RevisionRequest {
  cloneUrl: string;
  revision: string | null;
  defaultBranch: string;
  /** The code-host installation the repository was connected through; null: fetched anonymously. */
  installationId: string | null;
}

/** A request whose URL and revision git may be given as arguments. */
export interface CheckedRequest {
  url: URL;
  /** A full commit SHA, or a branch or tag name (never starting with `-`, so never read as an option). */
  wanted: string;
  installationId: string | null;
}

const FULL_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const SHORT_SHA = /^[0-9a-f]{7,39}$/i;
// git-check-ref-format(1), a subset: printable ASCII without space, ~ ^ : ? * [ \ or control characters; no `..`,
// `@{`, `//`; no component starting with `.` or ending with `.lock`; no trailing `/` or `.`; not `@` alone.
const REF_CHARS = /^[A-Za-z0-9._/+=,@#!%&'-]+$/;

function isRefName(name: string): boolean {
  if (name.length === 0 || name.length > 255 || !REF_CHARS.test(name)) return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name === '@') return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}

/**
 * The URL git will fetch from: https only (GIT_ALLOW_PROTOCOL says the same to git, for redirects and submodules
 * too), no user name or password (a token travels in a header, never in a URL that git could store or print), no
 * query or fragment. Printable ASCII only, so that nothing in it is read by git as something else.
 */
export function checkCloneUrl(cloneUrl: string): URL {
  const refuse = (why: string) =>
    // The URL itself is not echoed: it may hold a password.
    userError(ErrorCode.RepositoryCloneUrlInvalid, `cloneUrl ${why}; give the repository's https clone URL`);
  if (cloneUrl.length > 2048 || /[^\x21-\x7e]/.test(cloneUrl)) throw refuse('holds spaces, control or non-ASCII characters, or is too long');
  let url: URL;
  try {
    url = new URL(cloneUrl);
  } catch {
    throw refuse('is not an absolute URL');
  }
  if (url.protocol !== 'https:') throw refuse(`uses ${url.protocol.replace(/:$/, '')}, not https`);
  if (url.username !== '' || url.password !== '') throw refuse('carries a user name or password');
  if (url.search !== '' || url.hash !== '' || cloneUrl.includes('?') || cloneUrl.includes('#')) throw refuse('has a query or fragment');
  return url;
}

/** The revision to fetch: a full SHA, or a branch or tag name; an abbreviated SHA cannot be asked of a git server. */
export function checkRevision(revision: string, field = 'revision'): string {
  if (FULL_SHA.test(revision)) return revision.toLowerCase();
  if (SHORT_SHA.test(revision)) {
    throw userError(ErrorCode.RepositoryRevisionInvalid, `${field} ${revision} looks like an abbreviated commit SHA; a git server is asked for a full one: give all 40 characters`, {
      details: { field },
    });
  }
  if (!isRefName(revision)) {
    throw userError(ErrorCode.RepositoryRevisionInvalid, `${field} ${JSON.stringify(revision.slice(0, 100))} is neither a full commit SHA nor a branch or tag name`, {
      details: { field },
    });
  }
  return revision;
}

function checkBranch(branch: string): string {
  if (!isRefName(branch) || FULL_SHA.test(branch)) {
    throw userError(ErrorCode.RepositoryRevisionInvalid, `defaultBranch ${JSON.stringify(branch.slice(0, 100))} is not a branch name`, { details: { field: 'defaultBranch' } });
  }
  return branch;
}

export function checkRevisionRequest(request: RevisionRequest): CheckedRequest {
  const url = checkCloneUrl(request.cloneUrl);
  // The default branch by its full name: a bare name would match a tag of the same name first (gitrevisions(7)).
  const wanted = request.revision === null ? `refs/heads/${checkBranch(request.defaultBranch)}` : checkRevision(request.revision, 'revision');
  return { url, wanted, installationId: request.installationId };
}
