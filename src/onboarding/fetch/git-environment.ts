/**
 * The whole environment a fetch's git processes see: nothing inherited from the worker (its secrets, its GIT_*
 * variables, a developer's ~/.gitconfig with credential helpers or `url.insteadOf` rewrites), only what is listed here
 * and the few variables the composition root passes on (PATH, proxies).
 *
 * Settings travel as GIT_CONFIG_COUNT/KEY/VALUE (git-config(1), "ENVIRONMENT"): they apply to every git process of the
 * fetch, the remote helper included, and unlike `-c` arguments they are not in any process's argv (which every
 * user of the machine can read with `ps`), and unlike `git config` they are never written to `.git/config`. The
 * token is one of them, as GitHub's documented header: `Authorization: Basic base64(x-access-token:<token>)`.
 */
export interface GitEnvironmentOptions {
  /** An empty folder of the fetch, as HOME: git finds no user configuration there. */
  home: string;
  /** Variables passed on from the worker (PATH, HTTPS_PROXY, NO_PROXY); GIT_* ones are dropped. */
  passed: Readonly<Record<string, string | undefined>>;
  /** The installation token, when the fetch uses one. */
  token: string | null;
  /** A PEM bundle for git's TLS (Node's roots and NODE_EXTRA_CA_CERTS), when extra CAs are configured. */
  caFile: string | null;
  /** git gives up a transfer that stays under 1 KiB/s this long: an orphaned git (its worker killed) ends by itself. */
  lowSpeedSeconds: number;
}

export function authorizationHeader(token: string): string {
  return `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
}

export function gitEnvironment(options: GitEnvironmentOptions): Record<string, string> {
  const settings: [string, string][] = [
    // No hooks, no credential helper, no prompt: a fetch never runs code of the repository's or asks anyone.
    ['core.hooksPath', '/dev/null'],
    ['credential.helper', ''],
    // Symbolic links are checked out as small files holding the target's name, so that nothing reading the folder
    // afterwards (the indexer) follows a link out of it.
    ['core.symlinks', 'false'],
    ['core.fsmonitor', 'false'],
    // Keep what is received as a pack, so the size bound watches one folder (objects/pack) as it grows.
    ['fetch.unpackLimit', '1'],
    ['transfer.unpackLimit', '1'],
    // A redirect to another host would carry the Authorization header along: follow none.
    ['http.followRedirects', 'false'],
    ['http.lowSpeedLimit', '1024'],
    ['http.lowSpeedTime', String(options.lowSpeedSeconds)],
    ['protocol.version', '2'],
    ['advice.detachedHead', 'false'],
  ];
  if (options.caFile !== null) settings.push(['http.sslCAInfo', options.caFile]);
  if (options.token !== null) settings.push(['http.extraHeader', authorizationHeader(options.token)]);

  const passed = Object.fromEntries(
    Object.entries(options.passed).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^GIT_/i.test(entry[0])),
  );
  return {
    ...passed,
    HOME: options.home,
    XDG_CONFIG_HOME: options.home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    GIT_ALLOW_PROTOCOL: 'https',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_OPTIONAL_LOCKS: '0',
    // English messages: the failure is recognised by git's words.
    LC_ALL: 'C',
    LANG: 'C',
    GIT_CONFIG_COUNT: String(settings.length),
    ...Object.fromEntries(settings.flatMap(([key, value], index) => [[`GIT_CONFIG_KEY_${index}`, key], [`GIT_CONFIG_VALUE_${index}`, value]])),
  };
}
