/**
 * What the access directory says a user may reach (the directory's `readAccess` answers it). Until the directory
 * branch lands, this is the shape it promised; it is re-read on every request of a session.
 */
export type AccessState =
  | { state: 'setup_required'; missing: Array<'user' | 'organization' | 'membership'> }
  | {
      state: 'ready';
      user: { id: string; email: string | null; name: string | null };
      /** `id` is the service organization's id (the one API keys, installations and jobs belong to). */
      organizations: Array<{ id: string; name: string; role: 'admin' | 'member' }>;
    };

/** The directory's answer for one directory user id (the ID token's `sub`). */
export type ReadAccess = (directoryUserId: string) => Promise<AccessState>;
