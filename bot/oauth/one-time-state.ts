import oauth, { InvalidStateError, type InstallURLOptions, type StateStore } from '@slack/oauth';

// ClearStateStore is not among the names Node finds in the CommonJS build; its default export has it.
const { ClearStateStore } = oauth;

/** How long a state is good for: InstallProvider's own default for the state cookie (10 minutes). */
export const STATE_LIFETIME_SECONDS = 600;

/**
 * InstallProvider's signed `state` (its ClearStateStore), accepted once. A signed state alone verifies again and
 * again until it expires, so a state and cookie seen once (a proxy log, a shared browser, a back button) could
 * complete a second install with another code: another workspace's token stored through someone else's flow.
 * States used here are remembered until they would have expired anyway. The memory is this process's: a
 * deployment that serves the redirect from several processes needs a shared store for the same guarantee.
 */
export function oneTimeStateStore(stateSecret: string, lifetimeSeconds: number = STATE_LIFETIME_SECONDS): StateStore {
  const signed = new ClearStateStore(stateSecret, lifetimeSeconds);
  /** Used state → when it expires (epoch ms), after which the signature check refuses it by itself. */
  const used = new Map<string, number>();
  return {
    generateStateParam: (installOptions: InstallURLOptions, now: Date) => signed.generateStateParam(installOptions, now),
    async verifyStateParam(now: Date, state: string): Promise<InstallURLOptions> {
      for (const [old, expiresAt] of used) if (expiresAt <= now.getTime()) used.delete(old);
      if (used.has(state)) throw new InvalidStateError('The state value was already used');
      const installOptions = await signed.verifyStateParam(now, state);
      used.set(state, now.getTime() + lifetimeSeconds * 1000);
      return installOptions;
    },
  };
}
