import type { AccessState } from '../core/directory-access.js';

export type { AccessState } from '../core/directory-access.js';

/** The directory's answer for one directory user id (the ID token's `sub`): src/identity/access-directory.ts. */
export type ReadAccess = (directoryUserId: string) => Promise<AccessState>;
