/**
 * The job page (`/jobs/:id`, the page the bot and pull-request comments link to), against real runs of the worker
 * on the demo shop: followed live through a dropped connection, its trace opened in Playwright's viewer, a failure
 * with expected and actual and a dispute, a cancel, and hostile job text that stays text.
 */
import type { Page } from '@playwright/test';
import { callWithKey, control } from './support/control.js';
import { expect, test } from './support/fixtures.js';
import type { ServiceInfo } from './support/service-info.js';

/** Three navigations of two seconds each and a check: a run of about seven seconds that passes. */
const SLOW_PASSING = 'Go to /slow?ms=2000, go to /slow?ms=2000, go to /slow?ms=2000 and check that the page says "slow"';
const FAILING = 'Go to /pricing and check that the heading says "Gadgets Galore"';
const HOSTILE = 'Check that <img src=x onerror="window.__pwned=1"> and <a href="javascript:window.__pwned=2">here</a> show <script>window.__pwned=3</script> javascript:alert(1)';

async function createJob(service: ServiceInfo, task: string, organization: 'acme' | 'globex' = 'acme'): Promise<string> {
  const { key, repositoryId } = service.organizations[organization];
  const created = await callWithKey(key, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: task, baseUrl: service.demoUrl, trigger: 'cli' });
  expect(created.status).toBe(202);
  return created.body.jobId as string;
}

const status = (page: Page) => page.getByTestId('job-status');

test('watches a job pass live through a dropped connection, and opens its trace in the trace viewer', async ({ page, context, service, signIn, accessibilityViolations }) => {
  await signIn('watcher', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  // The first two connections to the event stream are cut: the page says so, and resumes after the last event it has.
  let cuts = 0;
  await page.route('**/api/jobs/*/events**', async (route) => {
    if (cuts < 2) {
      cuts += 1;
      await route.abort('connectionreset');
    } else await route.continue();
  });
  const resumed = page.waitForRequest((request) => cuts === 2 && /\/events\?after=\d+$/.test(request.url()));
  const jobId = await createJob(service, SLOW_PASSING);
  await page.goto(`${service.base}/jobs/${jobId}`);
  await expect(page.getByTestId('job-task')).toHaveText(SLOW_PASSING);
  await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
  await expect(page.getByTestId('stream-state')).toHaveText('Connection lost, reconnecting…');
  await resumed;

  // Steps appear as the run writes them, without a reload.
  await expect(status(page)).toHaveText('running');
  const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
  await expect(steps.first()).toContainText('Go to /slow?ms=2000');
  await expect(status(page)).toHaveText('passed', { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Steps (4)' })).toBeVisible();
  await expect(steps).toHaveCount(4);
  await expect(steps.nth(3)).toContainText('passed');
  await expect(steps.first().getByRole('img', { name: /^Screenshot of step 1/ })).toHaveAttribute('loading', 'lazy');
  expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
  expect(await accessibilityViolations()).toEqual([]);

  const [viewer] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: 'Open trace in the trace viewer' }).click()]);
  expect(new URL(viewer.url()).pathname).toBe('/trace/index.html');
  // Playwright's own viewer lists the run's actions: its navigations to the slow page.
  await expect(viewer.getByText('/slow?ms=2000').first()).toBeVisible({ timeout: 30_000 });
});

test('a failing job shows expected and actual side by side, and a finding is disputed from the page', async ({ page, service, signIn }) => {
  await signIn('disputer', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const jobId = await createJob(service, FAILING);
  await page.goto(`${service.base}/jobs/${jobId}`);
  await expect(status(page)).toHaveText('failed', { timeout: 30_000 });
  const finding = page.getByRole('list', { name: 'Findings' }).getByRole('listitem').filter({ hasText: 'Gadgets Galore' }).first();
  const comparison = finding.getByRole('group', { name: 'Expected and actual' });
  await expect(comparison).toContainText('ExpectedGadgets Galore');
  await expect(comparison.getByRole('listitem')).toHaveText(['Pricing', 'Starter', 'Pro', 'Team']);

  await finding.getByRole('button', { name: /^Dispute/ }).click();
  await finding.getByLabel('Why is this not a bug?').fill('The pricing page was renamed on purpose');
  await finding.getByRole('button', { name: 'Dispute finding' }).click();
  await expect(finding.getByTestId('disputed')).toContainText('Disputed (not a bug) by');
  await expect(finding.getByTestId('disputed')).toContainText('The pricing page was renamed on purpose');
  // It is the service's record, not only the page's: a reload shows it again.
  await page.reload();
  await expect(page.getByTestId('disputed')).toContainText('The pricing page was renamed on purpose');
});

test('a running job is cancelled from its page', async ({ page, service, signIn }) => {
  await signIn('canceller', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const jobId = await createJob(service, SLOW_PASSING);
  await page.goto(`${service.base}/jobs/${jobId}`);
  await expect(status(page)).toHaveText('running', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel job' }).click();
  await expect(status(page)).toHaveText('cancelled');
  await expect(page.getByRole('button', { name: 'Cancel job' })).toHaveCount(0);
  await expect(page.getByTestId('stream-state')).toHaveText('');
});

test("hostile job text shows as text and runs nothing; another organization's job is not found", async ({ page, service, signIn }) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signIn('onlooker', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const noRunsHere = async () => {
    expect(await page.locator('img[src="x"], script:not([src]), a[href^="javascript:"], a[href*="__pwned"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
  };
  // As a task.
  const jobId = await createJob(service, HOSTILE);
  await page.goto(`${service.base}/jobs/${jobId}`);
  await expect(page.getByTestId('job-task')).toHaveText(HOSTILE);
  await expect(status(page)).toHaveText(/passed|failed|errored|needs answers/, { timeout: 30_000 });
  expect(await page.getByText(HOSTILE, { exact: true }).count()).toBe(1);
  await noRunsHere();

  // Where a run writes what the page showed: a step, a page title and URL, a console line, expected and actual.
  const ran = await createJob(service, 'Check the thing');
  await control('long-job', { jobId: ran, steps: 3, eventsPerStep: 4, failingStep: 1, hostile: HOSTILE });
  await page.goto(`${service.base}/jobs/${ran}`);
  await expect(page.getByRole('list', { name: 'Steps' }).getByRole('listitem').first()).toContainText(HOSTILE);
  await expect(page.getByRole('list', { name: 'Findings' })).toContainText(`Console error: ${HOSTILE}`);
  await expect(page.getByRole('region', { name: 'Pages visited' })).toContainText('javascript:window.__pwned=4');
  await page.getByText(/^All \d+ events$/).click();
  await expect(page.getByRole('list', { name: 'Events' })).toContainText(`Step 1 started: ${HOSTILE}`);
  await noRunsHere();

  const elsewhere = await createJob(service, FAILING, 'globex');
  await page.goto(`${service.base}/jobs/${elsewhere}`);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  await expect(page.getByText('There is no job with this id in your organization.')).toBeVisible();
});

test('a job awaiting answers is answered from its page, which moves to the child job', async ({ page, service, signIn }) => {
  await signIn('answerer', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const parent = await createJob(service, 'Check the thing');
  await page.goto(`${service.base}/jobs/${parent}`);
  await expect(status(page)).toHaveText('needs answers');
  const form = page.getByRole('form', { name: 'Answer the questions' });
  const fields = form.getByRole('textbox');
  for (let index = 0; index < (await fields.count()); index += 1) await fields.nth(index).fill('Check that the pricing page lists three plans');
  await form.getByRole('button', { name: 'Answer' }).click();
  await expect(page).not.toHaveURL(new RegExp(`/jobs/${parent}$`));
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  const child = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(child);
  await expect(page.getByRole('link', { name: parent })).toHaveAttribute('href', `/jobs/${parent}`);
  // And the parent links to it.
  await page.getByRole('link', { name: parent }).click();
  await expect(page.getByRole('link', { name: child })).toBeVisible();
  await expect(page.getByText('These questions were answered')).toBeVisible();
});

test('a job of 2,000 events and 200 screenshots opens fast and renders only the rows in view, on a desktop and a phone, light and dark', async ({ page, service, signIn, accessibilityViolations }, testInfo) => {
  await signIn('reader', 'member');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  // A job awaiting answers (no worker runs it), given the history of a 200-step run.
  const jobId = await createJob(service, 'Check the thing');
  expect(await control('long-job', { jobId, steps: 200, eventsPerStep: 10 })).toEqual({ events: 2004, screenshots: 200 });

  for (const [width, height, scheme] of [[1280, 800, 'light'], [1280, 800, 'dark'], [390, 844, 'light'], [390, 844, 'dark']] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: scheme });
    const started = Date.now();
    await page.goto(`${service.base}/jobs/${jobId}`);
    await expect(page.getByRole('heading', { name: 'Steps (200)' })).toBeVisible();
    expect(Date.now() - started).toBeLessThan(5_000);
    const steps = page.getByRole('list', { name: 'Steps' }).getByRole('listitem');
    await expect(steps.first()).toHaveAttribute('aria-setsize', '200');
    expect(await steps.count()).toBeLessThan(30);
    expect(await page.locator('img').count()).toBeLessThan(30);
    await expect(page.getByRole('list', { name: 'Findings' })).toContainText('Cart (121)');

    // The keyboard reaches the last step: focus the list's scroll box, End.
    await page.getByRole('region', { name: 'Steps (scrollable)' }).focus();
    await page.keyboard.press('End');
    await expect(steps.last()).toHaveAttribute('aria-posinset', '200');
    await expect(steps.last().getByRole('img', { name: /^Screenshot of step 200/ })).toBeVisible();

    await page.getByText('All 2004 events').click();
    const events = page.getByRole('list', { name: 'Events' }).getByRole('listitem');
    await expect(events.first()).toHaveAttribute('aria-setsize', '2004');
    expect(await events.count()).toBeLessThan(60);
    await page.getByRole('region', { name: 'Events (scrollable)' }).focus();
    await page.keyboard.press('End');
    await expect(events.last()).toContainText('job.failed');
    await page.screenshot({ path: testInfo.outputPath(`long-job-${width}-${scheme}.png`), fullPage: true });
    expect(await accessibilityViolations()).toEqual([]);
  }
});
