import { z } from 'zod';

/** zod field schemas shared by the routers, so a rule reads the same everywhere. */
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const hostnameList = z
  .array(z.string().regex(HOSTNAME, 'must be a hostname'))
  .max(100)
  .default([])
  .transform((hosts) => hosts.map((host) => host.toLowerCase()));

export const httpUrl = z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: 'must be an http(s) URL' });
export const httpsUrl = z.url({ protocol: /^https$/, hostname: z.regexes.hostname, error: 'must be an https URL' });
export const commitSha = z.string().regex(/^[0-9a-f]{7,64}$/i, 'must be 7 to 64 hexadecimal characters');
