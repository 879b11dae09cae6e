/**
 * Signing in to the dashboard: the sign-in button, the setup screen that waits for the access directory, and the
 * dashboard that appears by itself (no reload) when the identity provider's webhooks fill the directory in.
 */
import { identityEvent, identityObjects, sendIdentityDelivery } from '../support/identity-deliveries.js';
import { expect, test } from './support/fixtures.js';

test('a new person signs in, waits on the setup screen, and the dashboard appears when the directory catches up', async ({ page, service, signIn, accessibilityViolations }) => {
  await page.goto(`${service.base}/jobs`);
  const signInLink = page.getByRole('link', { name: 'Sign in' });
  await expect(signInLink).toBeVisible();
  expect(await accessibilityViolations()).toEqual([]);

  await signIn('newcomer', 'member', { pending: true, returnTo: '/jobs' });
  await expect(page.getByRole('heading', { name: 'Almost there' })).toBeVisible();
  await expect(page.getByTestId('setup-missing').getByRole('listitem')).toHaveText(['your user account', 'your organization', 'an active membership of you in that organization']);
  expect(await accessibilityViolations()).toEqual([]);
  // Proves below that the page moved on by itself: a reload would drop this.
  await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));

  const webhook = `${service.base}/api/webhooks/identity`;
  const at = new Date();
  for (const event of [
    identityEvent('user.created', identityObjects.user('newcomer', at, { name: 'New Comer' })),
    identityEvent('organization.created', identityObjects.organization('org_acme_idp', at, { name: 'Acme', external_id: 'acme' })),
    identityEvent('organization_membership.created', identityObjects.membership('om_newcomer', at, { user_id: 'newcomer', organization_id: 'org_acme_idp', role: 'member' })),
  ]) {
    expect((await sendIdentityDelivery(webhook, event, { secret: service.webhookSecret })).status).toBe(202);
  }

  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('signed-in-as')).toContainText('New Comer');
  expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
});

test('the page is served with a CSP that allows no inline script, and hashed assets are cached for good', async ({ page, service }) => {
  const answer = await page.request.get(`${service.base}/jobs`);
  expect(answer.status()).toBe(200);
  const csp = answer.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(answer.headers()['cache-control']).toBe('no-cache');
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(await answer.text())?.[1];
  expect(script).toBeDefined();
  const asset = await page.request.get(`${service.base}${script}`);
  expect(asset.status()).toBe(200);
  expect(asset.headers()['cache-control']).toContain('immutable');
  expect((await page.request.get(`${service.base}/assets/missing-123.js`)).status()).toBe(404);
});
