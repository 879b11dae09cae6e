/**
 * The checks and admin screens in real Chromium: accepting a healed check version from its page, a member kept out
 * of the admin screens and refused by the API even from the page's own origin with its CSRF token, and an admin
 * managing keys, installations and execution. Each screen is audited (axe, light and dark) and photographed on a
 * desktop and a phone in both schemes (test-results/web/…/screens/).
 */
import type { Page, TestInfo } from '@playwright/test';
import { callWithKey, control } from './support/control.js';
import { expect, test } from './support/fixtures.js';

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** Axe finds nothing serious or critical in either scheme; a full-page picture of each scheme and viewport. */
async function auditAndPhotograph(page: Page, testInfo: TestInfo, name: string, audit: (page: Page) => Promise<string[]>): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await audit(page), `${name} (${colorScheme})`).toEqual([]);
    for (const [viewport, size] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.screenshot({ path: testInfo.outputPath('screens', `${name}-${viewport}-${colorScheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a member accepts a healed version from the check page: changed locator and screenshot beside the accepted steps', async ({ page, service, signIn, accessibilityViolations }, testInfo) => {
  // The healing replay's screenshot: a real picture of the demo app's sign-in page.
  await page.goto(`${service.demoUrl}/login`);
  const screenshotBase64 = (await page.screenshot()).toString('base64');
  const { checkId } = await control<{ checkId: string }>('healed-check', { screenshotBase64, task: 'Sign in to the shop <img src=x onerror=alert(1)>' });

  await signIn('member_checks', 'member', { returnTo: '/checks' });
  const row = page.getByRole('row', { name: /Sign in to the shop </ });
  await expect(row.getByRole('cell', { name: 'acme/shop' })).toBeVisible();
  await expect(row.getByRole('link', { name: /Replay/ })).toHaveAttribute('href', `/jobs/new?testId=${checkId}`);
  await auditAndPhotograph(page, testInfo, 'checks', accessibilityViolations);
  await row.getByRole('link', { name: /^Sign in to the shop/ }).click();

  // The task is text, never markup.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the shop <img src=x onerror=alert(1)>');
  const proposal = page.getByTestId('proposal');
  await expect(proposal.getByRole('heading', { name: 'Proposed version 2' })).toBeVisible();
  const current = proposal.getByTestId('current-steps');
  const proposed = proposal.getByTestId('proposed-steps');
  // Only the healed step is marked, on both sides, in words as well as colour; the secret shows by its name only.
  await expect(current.locator('tr[data-changed]')).toHaveCount(1);
  await expect(current.locator('tr[data-changed="locator"]')).toContainText("getByRole('button', { name: 'Sign in', exact: true })");
  await expect(proposed.locator('tr[data-changed="locator"]')).toContainText("getByRole('button', { name: 'Log in', exact: true })");
  await expect(proposed.locator('tr[data-changed="locator"]')).toContainText('locator changed');
  await expect(proposed).toContainText('secret: password');
  const shot = proposal.getByRole('img', { name: 'Screenshot of step 3 in the healing run' });
  await expect(shot).toBeVisible();
  // Visible comes before loaded (the element shows its alt text first): the picture must load, and a broken one never
  // does (complete, with no width).
  await expect.poll(() => shot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId('check-source')).toContainText("test(\"Sign in to the shop <img src=x onerror=alert(1)>\"");
  await expect(page.getByTestId('check-source')).toContainText('SHOP_PASSWORD');
  await auditAndPhotograph(page, testInfo, 'check-proposal', accessibilityViolations);

  await proposal.getByRole('button', { name: 'Accept version 2' }).click();
  await expect(page.getByTestId('proposal')).toHaveCount(0);
  await expect(page.getByText('replays version 2')).toBeVisible();
  await expect(page.getByRole('row', { name: /v2 \(replayed\)/ })).toContainText('accepted');
  await expect(page.getByTestId('version-steps')).toContainText("name: 'Log in'");
  await expect(page.getByTestId('check-source')).toContainText('Log in');
  // The service agrees: the check replays version 2, accepted by this person.
  const answer = await callWithKey(service.organizations.acme.key, 'GET', `/api/checks/${checkId}`);
  expect(answer.body).toMatchObject({ check: { version: 2 }, versions: [{ version: 1 }, { version: 2, state: 'accepted', acceptedBy: expect.stringContaining('member_checks') }] });

  // A schedule from the page: a bad cron expression is refused next to its field, a good one is listed, then deleted.
  await page.getByText('New schedule').click();
  await page.getByRole('radio', { name: 'Cron expression' }).check();
  await page.getByRole('textbox', { name: 'Cron expression' }).fill('61 * * * *');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.locator('.field-error')).toContainText('0-59');
  await page.getByRole('textbox', { name: 'Cron expression' }).fill('0 6 * * 1');
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  const schedule = page.getByTestId('schedule');
  await expect(schedule).toContainText('cron 0 6 * * 1');
  await expect(schedule).toContainText('Europe/Berlin');
  await expect(schedule).toContainText('active');
  await schedule.getByRole('button', { name: /^Pause schedule/ }).click();
  await expect(schedule).toContainText('paused');
  await schedule.getByRole('button', { name: /^Resume schedule/ }).click();
  await expect(schedule).toContainText('active');
  await schedule.getByRole('button', { name: /Delete schedule/ }).click();
  await schedule.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByTestId('schedule')).toHaveCount(0);
  await expect(page.getByText('No schedule replays this check.')).toBeVisible();
});

test('a member edits pull-request settings and meets the API\'s field errors when connecting; sees no admin screens, and the API refuses their admin calls from the page', async ({ page, service, signIn, accessibilityViolations }, testInfo) => {
  const acme = service.organizations.acme;
  await signIn('member_plain', 'member', { returnTo: '/repositories' });
  await page.getByRole('button', { name: /acme\/shop/ }).click();
  const panel = page.getByTestId('repository-panel');
  await expect(panel.getByRole('heading', { name: 'acme/shop' })).toBeVisible();
  await expect(panel).toContainText(service.demoUrl);
  await auditAndPhotograph(page, testInfo, 'repository', accessibilityViolations);
  const drafts = panel.getByRole('checkbox', { name: 'Run draft pull requests too' });
  const save = panel.getByRole('button', { name: 'Save pull-request settings' });
  await drafts.check();
  await panel.getByRole('textbox', { name: 'Preview URL template' }).fill('https://pr-{number}.preview.example/{nope}');
  await save.click();
  await expect(panel.locator('.field-error')).toContainText('{nope}');
  await panel.getByRole('textbox', { name: 'Preview URL template' }).fill('https://pr-{number}.preview.example');
  await save.click();
  await expect(panel.getByRole('status')).toHaveText('Saved.');
  await auditAndPhotograph(page, testInfo, 'repository-saved', accessibilityViolations);
  const stored = await callWithKey(acme.key, 'GET', `/api/repositories/${acme.repositoryId}`);
  expect(stored.body).toMatchObject({ repository: { pullRequests: { runDrafts: true, previewUrlTemplate: 'https://pr-{number}.preview.example' } } });
  // Put the shared repository back as it was. An edit takes "Saved." away until the next save has succeeded.
  await drafts.uncheck();
  await expect(panel.getByRole('status')).toHaveCount(0);
  await panel.getByRole('textbox', { name: 'Preview URL template' }).fill('');
  await save.click();
  await expect(panel.getByRole('status')).toHaveText('Saved.');
  expect((await callWithKey(acme.key, 'GET', `/api/repositories/${acme.repositoryId}`)).body).toMatchObject({ repository: { pullRequests: { runDrafts: false } } });

  // Connecting: the API's messages land next to the fields they are about.
  await page.getByRole('button', { name: 'Connect a repository' }).click();
  const form = page.getByRole('form', { name: 'Connect a repository' });
  await form.getByLabel('Installation id').fill('42');
  await form.getByLabel('Owner').fill('acme');
  await form.getByLabel('Name', { exact: true }).fill('shop-two');
  await form.getByLabel('Clone URL').fill('http://code.example/acme/shop-two.git');
  await form.getByLabel('Base URL').fill('https://shop-two.example');
  await form.getByLabel('Network allowlist').fill('api.shop-two.example\nnot a host');
  await form.getByLabel('Test-value secrets').fill('password=SHOP_PASSWORD');
  await form.getByRole('button', { name: 'Connect repository' }).click();
  await expect(form.getByLabel('Clone URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Clone URL')).toHaveAccessibleDescription(/must be an https URL/);
  await expect(form.getByLabel('Network allowlist')).toHaveAccessibleDescription(/entry 2: must be a host/);
  await expect(form.getByLabel('Owner')).not.toHaveAttribute('aria-invalid', 'true');
  await auditAndPhotograph(page, testInfo, 'repository-connect-errors', accessibilityViolations);

  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Checks' })).toBeVisible();
  for (const name of ['Installations', 'API keys', 'Execution']) await expect(nav.getByRole('link', { name })).toHaveCount(0);
  for (const path of ['/installations', '/keys', '/execution']) {
    await page.goto(`${service.base}${path}`);
    await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  }

  // The page's own origin, the session cookie and its CSRF token: the role, not the page, is what refuses.
  const answers = await page.evaluate(async () => {
    const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
    const headers = { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken };
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/keys'],
      ['POST', '/api/keys', { label: 'sneaky' }],
      ['PUT', '/api/execution-flags/live', { paused: true }],
      ['POST', '/api/installations/4242/connect', {}],
    ];
    return Promise.all(
      calls.map(async ([method, path, body]) => {
        const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { call: `${method} ${path}`, status: response.status, code: ((await response.json()) as { error?: { code?: string } }).error?.code };
      }),
    );
  });
  expect(answers).toEqual([
    { call: 'GET /api/keys', status: 403, code: 'role.forbidden' },
    { call: 'POST /api/keys', status: 403, code: 'role.forbidden' },
    { call: 'PUT /api/execution-flags/live', status: 403, code: 'role.forbidden' },
    { call: 'POST /api/installations/4242/connect', status: 403, code: 'role.forbidden' },
  ]);
});

test('an admin creates a key (secret shown once), revokes it, connects a reported installation, pauses and resumes execution', async ({ page, context, service, signIn, accessibilityViolations }, testInfo) => {
  const acme = service.organizations.acme;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.base });
  await signIn('admin_keys', 'admin', { returnTo: '/keys' });

  // A key: its secret once, with a copy button and the warning; it works; after a reload it is gone for good.
  const label = `CI ${testInfo.testId.slice(0, 6)}`;
  await page.getByLabel('Label').fill(label);
  await page.getByRole('button', { name: 'Create key' }).click();
  const secretBox = page.getByTestId('new-key');
  await expect(secretBox).toContainText('This is the only time the key is shown');
  const secret = await page.getByTestId('new-key-secret').inputValue();
  expect(secret).toMatch(/^qa_[0-9a-f]{12}_/);
  await secretBox.getByRole('button', { name: 'Copy key' }).click();
  await expect(secretBox.getByRole('status')).toHaveText('Copied to the clipboard.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  expect((await callWithKey(secret, 'GET', '/api/checks')).status).toBe(200);
  await auditAndPhotograph(page, testInfo, 'keys-new-secret', accessibilityViolations);
  await page.reload();
  const keyRow = page.getByTestId('api-key').filter({ hasText: label });
  await expect(keyRow).toBeVisible();
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);
  // By keyboard: the question takes the focus, Cancel gives it back, the second time Yes revokes.
  const revoke = keyRow.getByRole('button', { name: `Revoke ${label}` });
  await revoke.focus();
  await page.keyboard.press('Enter');
  await expect(keyRow.getByRole('group')).toContainText('Every client using it stops working at once');
  await expect(keyRow.getByRole('button', { name: 'Yes, revoke' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(keyRow.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(revoke).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(keyRow.getByRole('button', { name: 'Yes, revoke' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(keyRow).toContainText('revoked');
  expect((await callWithKey(secret, 'GET', '/api/checks')).status).toBe(401);
  await auditAndPhotograph(page, testInfo, 'keys', accessibilityViolations);

  // An installation the code host reported, connected to this organization from the page.
  const installationId = String(700_000 + Math.floor(Math.random() * 100_000));
  await control('reported-installation', { installationId, account: 'acme-widgets' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Installations' }).click();
  const installation = page.getByTestId('installation').filter({ hasText: 'acme-widgets' });
  await installation.getByRole('button', { name: `Connect installation ${installationId} (acme-widgets)` }).click();
  await expect(installation).toContainText('connected');
  await expect(installation).toContainText('by ');
  await auditAndPhotograph(page, testInfo, 'installations', accessibilityViolations);

  // Execution: live paused refuses a replay (503 execution.paused), then resumed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Execution' }).click();
  const live = page.getByTestId('flag-live');
  try {
    await live.getByRole('button', { name: 'Pause live execution' }).click();
    await expect(live.getByTestId('flag-state')).toHaveText('paused');
    const refused = await callWithKey(acme.key, 'POST', '/api/jobs', { projectId: acme.repositoryId, testId: acme.checkId, baseUrl: service.demoUrl, trigger: 'cli' });
    expect(refused).toMatchObject({ status: 503, body: { error: { code: 'execution.paused' } } });
    await auditAndPhotograph(page, testInfo, 'execution-paused', accessibilityViolations);
    await live.getByRole('button', { name: 'Resume live execution' }).click();
    await expect(live.getByTestId('flag-state')).toHaveText('running');
    await page.reload();
    await expect(page.getByTestId('flag-live').getByTestId('flag-state')).toHaveText('running');
    await expect(page.getByTestId('flag-ai').getByTestId('flag-state')).toHaveText('running');
    // An operator's pause for everyone shows on the card, whatever this organization set.
    await control('operator-pause', { capability: 'ai', paused: true });
    await page.reload();
    await expect(page.getByTestId('flag-ai').getByTestId('paused-for-everyone')).toContainText('paused this for everyone');
    await expect(page.getByTestId('flag-live').getByTestId('paused-for-everyone')).toHaveCount(0);
  } finally {
    await control('operator-pause', { capability: 'ai', paused: false });
    // The service is shared with the other tests: never leave it paused.
    await page.evaluate(async () => {
      const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
      await fetch('/api/execution-flags/live', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: JSON.stringify({ paused: false }) });
    });
  }
});
