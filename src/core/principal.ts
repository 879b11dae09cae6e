/**
 * Who is calling: every use case receives one and scopes what it reads and writes by its organization. A machine
 * acts with a credential (an API key) or as the service itself on an organization's behalf (a schedule firing); a
 * person (the identity issue: a signed-in user in the organization they chose) carries a user and a role.
 */
export type Principal = MachinePrincipal | PersonPrincipal;

export interface MachinePrincipal {
  readonly kind: 'machine';
  readonly organizationId: string;
  /** What the machine acts as, for audit: an API key (by id, never its secret) or one of the service's own actors. */
  readonly actor:
    | { readonly type: 'api_key'; readonly apiKeyId: string }
    | { readonly type: 'schedule'; readonly scheduleId: string }
    | { readonly type: 'chat'; readonly teamId: string; readonly userId: string }
    | { readonly type: 'codehost'; readonly installationId: number; readonly login: string | null }
    | { readonly type: 'onboarding'; readonly ingestionRunId: string };
}

/** Roles of a membership; the identity directory decides them. */
export type OrganizationRole = 'admin' | 'member';

export interface PersonPrincipal {
  readonly kind: 'person';
  readonly organizationId: string;
  readonly userId: string;
  readonly role: OrganizationRole;
}

export function apiKeyPrincipal(organizationId: string, apiKeyId: string): MachinePrincipal {
  return { kind: 'machine', organizationId, actor: { type: 'api_key', apiKeyId } };
}

/** A schedule's fires act for the organization that created it, as no caller is present. */
export function schedulePrincipal(organizationId: string, scheduleId: string): MachinePrincipal {
  return { kind: 'machine', organizationId, actor: { type: 'schedule', scheduleId } };
}

/** A person in a chat workspace connected to the organization, acting through the bot (audit: team and user). */
export function chatPrincipal(organizationId: string, teamId: string, userId: string): MachinePrincipal {
  return { kind: 'machine', organizationId, actor: { type: 'chat', teamId, userId } };
}

/**
 * The code-host app acting for the organization its installation is connected to: for a pull request's own runs
 * (`login` null) or for the person whose `/qa` comment asked (their code-host login).
 */
export function codehostPrincipal(organizationId: string, installationId: number, login: string | null): MachinePrincipal {
  return { kind: 'machine', organizationId, actor: { type: 'codehost', installationId, login } };
}

/** An onboarding's catalog builds act for the organization that connected the repository (audit: the ingestion run). */
export function onboardingPrincipal(organizationId: string, ingestionRunId: string): MachinePrincipal {
  return { kind: 'machine', organizationId, actor: { type: 'onboarding', ingestionRunId } };
}

/**
 * Who acted, in one short line for records people read ("disputed by …"): the kind of actor and its id, never a
 * secret. Exhaustive: a new actor type fails the typecheck here until it is named.
 */
export function actorName(principal: Principal): string {
  if (principal.kind === 'person') return `user:${principal.userId}`;
  const { actor } = principal;
  switch (actor.type) {
    case 'api_key':
      return `api_key:${actor.apiKeyId}`;
    case 'schedule':
      return `schedule:${actor.scheduleId}`;
    case 'chat':
      return `slack:${actor.teamId}:${actor.userId}`;
    case 'codehost':
      return actor.login === null ? `codehost:${actor.installationId}` : `codehost:${actor.installationId}:${actor.login}`;
    case 'onboarding':
      return `onboarding:${actor.ingestionRunId}`;
    default: {
      const unnamed: never = actor;
      return unnamed;
    }
  }
}
