/** The request schemas of `/api/repositories`: the router parses with them; the OpenAPI document is generated from them. */
import { z } from 'zod';
import { OWNER_NAME } from '../../config.js';
import { pullRequestSettingsChangeSchema, pullRequestSettingsSchema } from '../../core/pull-request-settings.js';
import { allowedSideEffectsSchema } from '../../core/plan.js';
import { columnLength } from '../../store/column-limits.js';
import { ConnectedRepository } from '../../store/entities/connected-repository.entity.js';
import { commitSha, hostnameList, httpsUrl, httpUrl } from '../fields.js';

const SEMANTIC_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
/** Entries of testValueSecretRefs and evidenceProbeRefs: a JSON column each, bounded like any other input. */
const MAX_REFS = 100;
const maxLength = (property: keyof ConnectedRepository) => columnLength(ConnectedRepository, property);
const semanticName = (message: string) => z.string().max(64).regex(SEMANTIC_NAME, message);

/** The connect body (spec 2.3); unknown fields rejected. */
export const connectBody = z.strictObject({
  provider: z.literal('codehost', { error: 'must be "codehost"' }),
  providerInstallationId: z
    .string()
    .max(maxLength('providerInstallationId'))
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -'),
  owner: z.string().max(maxLength('owner')).regex(OWNER_NAME, 'must be a code-host owner name'),
  name: z
    .string()
    .max(maxLength('name'))
    .regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a repository name')
    .refine((name) => name !== '.' && name !== '..', 'must be a repository name'),
  defaultBranch: z
    .string()
    .min(1)
    .max(maxLength('defaultBranch'))
    .refine((branch) => !/[\s~^:?*[\\]/.test(branch) && [...branch].every((char) => char.charCodeAt(0) >= 0x20), 'must be a branch name'),
  cloneUrl: httpsUrl(maxLength('cloneUrl')),
  baseUrl: httpUrl(maxLength('baseUrl')),
  networkAllowlist: hostnameList,
  testValueSecretRefs: z
    .record(semanticName('must be a test-value name'), z.string().max(128).regex(ENV_NAME, 'must be an environment variable name'))
    .refine((refs) => Object.keys(refs).length <= MAX_REFS, `may have at most ${MAX_REFS} entries`)
    .default({}),
  evidenceProbeRefs: z
    .record(
      semanticName('must be a success-criterion key'),
      z.strictObject({ urlValueRef: semanticName('must be a test-value name'), tokenValueRef: semanticName('must be a test-value name') }),
    )
    .refine((refs) => Object.keys(refs).length <= MAX_REFS, `may have at most ${MAX_REFS} entries`)
    .default({}),
  revision: commitSha.max(maxLength('revision')).optional(),
  /** How pull requests run (src/core/pull-request-settings.ts); absent: the defaults. */
  pullRequests: pullRequestSettingsSchema.optional(),
  /** Side-effect classes onboarding's catalog builds may carry out (`create`, `pay`…); absent: none. */
  allowedSideEffects: allowedSideEffectsSchema,
});

/** `PATCH /api/repositories/:id`: the settings given replace the stored ones; unknown fields rejected. */
export const updateBody = z.strictObject({ pullRequests: pullRequestSettingsChangeSchema });

