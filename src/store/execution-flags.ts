import type { DataSource } from 'typeorm';
import { CAPABILITIES, pausedError, type Capability } from '../core/execution.js';
import { ExecutionFlag } from './entities/execution-flag.entity.js';

export const GLOBAL_SCOPE = 'global';

/** Pauses or resumes a capability for everyone (organizationId undefined) or for one organization. */
export async function setCapabilityPaused(
  dataSource: DataSource,
  capability: Capability,
  paused: boolean,
  organizationId?: string,
  updatedBy: string | null = null,
): Promise<void> {
  await dataSource
    .getRepository(ExecutionFlag)
    .upsert({ scope: organizationId ?? GLOBAL_SCOPE, capability, paused, updatedAt: new Date(), updatedBy }, ['scope', 'capability']);
}

/** The capabilities an organization paused for itself (`paused`), and those an operator paused for everyone. */
export async function organizationFlags(dataSource: DataSource, organizationId: string): Promise<Array<{ capability: Capability; paused: boolean; pausedForEveryone: boolean }>> {
  const rows = await dataSource.getRepository(ExecutionFlag).find({ where: [{ scope: GLOBAL_SCOPE }, { scope: organizationId }] });
  return CAPABILITIES.map((capability) => ({
    capability,
    paused: rows.some((row) => row.scope === organizationId && row.capability === capability && row.paused),
    pausedForEveryone: rows.some((row) => row.scope === GLOBAL_SCOPE && row.capability === capability && row.paused),
  }));
}

/** The capabilities paused for this organization, globally or for it alone. */
export async function pausedCapabilities(dataSource: DataSource, organizationId: string): Promise<Set<Capability>> {
  const rows = await dataSource
    .getRepository(ExecutionFlag)
    .find({ select: { capability: true }, where: [{ scope: GLOBAL_SCOPE, paused: true }, { scope: organizationId, paused: true }] });
  return new Set(rows.map((row) => row.capability as Capability));
}

/** Throws the 503 `execution.paused` when any capability this work needs is paused for the organization. */
export async function assertCapabilitiesRunning(dataSource: DataSource, organizationId: string, needed: Capability[]): Promise<void> {
  const paused = await pausedCapabilities(dataSource, organizationId);
  const blocked = needed.find((capability) => paused.has(capability));
  if (blocked) throw pausedError(blocked);
}
