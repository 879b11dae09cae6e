import { AppError, ErrorCode, operationalError, userError } from '../../core/errors.js';

export interface FailureContext {
  /** The clone URL, as safe to show (it never carries credentials). */
  url: string;
  wanted: string;
  usedToken: boolean;
  /** Removes every form of the token from text that came from git, should git ever echo it. */
  scrub: (text: string) => string;
}

/** git's last meaningful line, for the message of a failure nothing else recognises. */
function lastWords(stderr: string): string {
  const lines = stderr.split(/\r?\n|\r/).map((line) => line.trim()).filter((line) => line !== '' && !/^(remote: )?(Counting|Compressing|Receiving|Resolving|Enumerating|Total)/.test(line));
  return lines.slice(-2).join(' / ').slice(0, 500);
}

function httpStatus(stderr: string): number | null {
  const found = /The requested URL returned error: (\d{3})/.exec(stderr);
  if (found) return Number(found[1]);
  // remote-curl.c words a 404 of the ref listing this way, without the status.
  return /fatal: repository '.*' not found/.test(stderr) ? 404 : null;
}

/**
 * A failed `git fetch` as a coded error, by git's own words (LC_ALL=C). The patterns are git 2.x's messages
 * (http.c, remote-curl.c, fetch-pack.c, upload-pack.c); a message none matches is `repository.fetch_failed` with git's
 * last words, scrubbed of the token.
 */
/**
 * A URL that answers 200 with anything (an HTML page) is taken by git for a "dumb" HTTP repository with no refs, so a
 * branch fetched from it is "couldn't find remote ref": when a fetch ends as an unknown revision and the remote lists
 * no refs at all, it is no git repository (or an empty one).
 */
export function noRefsFailure(url: string): AppError {
  return userError(ErrorCode.RepositoryNotGit, `${url} answers no git refs: it is not a git repository (or an empty one, with no commit yet): check cloneUrl`);
}

export function fetchFailure(stderr: string, context: FailureContext): AppError {
  const status = httpStatus(stderr);
  const where = context.url;
  if (/SSL certificate problem|server certificate verification failed|certificate verify failed|unable to get local issuer|self[- ]signed certificate/i.test(stderr)) {
    return operationalError(
      ErrorCode.RepositoryTlsUntrusted,
      `The TLS certificate of ${where} is not trusted. If the code host uses a private CA, give its PEM file in NODE_EXTRA_CA_CERTS`,
    );
  }
  if (status === 401 || status === 403 || /could not read (Username|Password)|Authentication failed|terminal prompts disabled/i.test(stderr)) {
    const why = context.usedToken
      ? "the installation's token was refused: check that the code-host app is still installed with access to this repository"
      : 'it asks for credentials and no installation token was used: connect the repository through an installation that has access to it';
    return userError(ErrorCode.RepositoryAccessRefused, `${where} refused the fetch${status ? ` (HTTP ${status})` : ''}: ${why}`, {
      status: 403,
      details: status ? { httpStatus: status } : undefined,
    });
  }
  if (/couldn't find remote ref|not our ref|unadvertised object|no such remote ref|invalid refspec/i.test(stderr)) {
    return userError(ErrorCode.RepositoryRevisionUnknown, `${where} has no commit, branch or tag ${context.wanted}`, { status: 404 });
  }
  if (status === 404 || /not valid: is this a git repository|dumb http transport|Repository not found|not a git repository|expected flush after ref listing|invalid server response|protocol error: bad pack header/i.test(stderr)) {
    return userError(
      ErrorCode.RepositoryNotGit,
      `No git repository answers at ${where}${status ? ` (HTTP ${status})` : ''}: check cloneUrl${context.usedToken ? ", and that the installation still has access to the repository" : ''}`,
      { details: status ? { httpStatus: status } : undefined },
    );
  }
  if (/Operation too slow|Operation timed out|Connection timed out/i.test(stderr)) {
    return operationalError(ErrorCode.RepositoryFetchTimeout, `${where} sent too little for too long; the fetch was stopped`);
  }
  if ((status !== null && status >= 500) || /Could not resolve host|Failed to connect|Connection refused|Couldn't connect|Empty reply from server|Recv failure|Connection reset|unexpected disconnect|early EOF|RPC failed/i.test(stderr)) {
    return operationalError(ErrorCode.RepositoryUnreachable, `${where} could not be reached or broke off (${context.scrub(lastWords(stderr))}); the fetch may be retried`);
  }
  if (status !== null && status >= 300 && status < 400) {
    return userError(ErrorCode.RepositoryNotGit, `${where} answered with a redirect (HTTP ${status}); redirects are not followed, so give the repository's current clone URL`, {
      details: { httpStatus: status },
    });
  }
  return operationalError(ErrorCode.RepositoryFetchFailed, `git could not fetch ${context.wanted} from ${where}: ${context.scrub(lastWords(stderr)) || 'no message'}`);
}
