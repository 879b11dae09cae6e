/**
 * The dashboard's test fixtures: the running service, signing a person in through the fake identity provider (the
 * real OpenID flow, in the page), and the service's own accessibility audit (src/browser/accessibility.ts, the one
 * runs use) for a screen.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { createAccessibilityAudit } from '../../../src/browser/accessibility.js';
import { control, serviceInfo } from './control.js';
import type { ServiceInfo } from './service-info.js';

export { expect };

export type Role = 'admin' | 'member';

export interface SignInOptions {
  /** Put in the directory first (as its webhooks would): member of these organizations. Default: acme as `role`. */
  organizations?: Array<{ slug: 'acme' | 'globex'; role: Role }>;
  /** Where to land after sign-in (default /jobs). */
  returnTo?: string;
  /** Skip the directory: the person stays on the setup screen. */
  pending?: boolean;
}

interface Fixtures {
  service: ServiceInfo;
  /** Signs `userId` in in this page's context (the service's session cookie) and waits for the page to load. */
  signIn: (userId: string, role?: Role, options?: SignInOptions) => Promise<void>;
  /** Serious and critical axe violations of the page as it is now (rule ids and where). */
  accessibilityViolations: (page?: Page) => Promise<string[]>;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  service: async ({}, use) => {
    await use(serviceInfo());
  },
  signIn: async ({ page, service }, use) => {
    await use(async (userId, role = 'member', options = {}) => {
      if (!options.pending) await control('directory', { userId, organizations: options.organizations ?? [{ slug: 'acme', role }] });
      await control('sign-in-as', { sub: userId });
      await page.goto(`${service.base}/auth/login?returnTo=${encodeURIComponent(options.returnTo ?? '/jobs')}`);
    });
  },
  accessibilityViolations: async ({ page }, use) => {
    await use(async (target = page) => {
      const findings = await createAccessibilityAudit({ severity: 'error', crossOriginFrames: false }).audit(target, null);
      return findings.map((finding) => `${finding.title}: ${finding.detail}`);
    });
  },
});
