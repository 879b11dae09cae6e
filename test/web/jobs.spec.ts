/**
 * The Jobs and New job screens in real Chromium against the real service and worker: a job started from the page
 * appears in another tab's list by itself and changes state there without a reload; a task that needs clarification
 * shows its questions at once and answering opens the child job; the API's field errors stand next to their fields;
 * filters narrow the list, live in the URL and survive a reload. Screenshots of both screens (desktop and phone,
 * light and dark) go to test-results/screens/ to look at.
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { Page } from '@playwright/test';
import { callWithKey } from './support/control.js';
import { expect, test } from './support/fixtures.js';

const PASSING_TASK = 'Check that the pricing page lists three plans';
const UNCLEAR_TASK = 'Delete the demo account';

/** The row of a job in the list. */
const row = (page: Page, jobId: string) => page.locator(`tr[data-job-id="${jobId}"]`);
const jobIdOf = (url: string) => /\/jobs\/([^/?#]+)$/.exec(new URL(url).pathname)?.[1];

test('a job started from the page appears in the list live and changes state there, without a reload', async ({ page, context, service, signIn, accessibilityViolations }) => {
  await signIn('jobs_runner', 'member');
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  await expect(page.getByText('Updates live')).toBeVisible();
  await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));

  const form = await context.newPage();
  await form.goto(`${service.base}/jobs/new`);
  await expect(form.getByRole('heading', { name: 'New job' })).toBeVisible();
  // The only repository is chosen, with its base URL filled in.
  await expect(form.getByLabel('Repository')).toHaveValue(service.organizations.acme.repositoryId);
  await expect(form.getByLabel('Base URL')).toHaveValue(service.demoUrl);
  expect(await accessibilityViolations(form)).toEqual([]);

  // A field the API refuses is named next to the field.
  await form.getByLabel('Task', { exact: true }).fill(PASSING_TASK);
  await form.getByLabel('Base URL').fill('ftp://files.example.com');
  await form.getByRole('button', { name: 'Start job' }).click();
  await expect(form.locator('.field-error')).toHaveText([/http/]);
  await expect(form.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Base URL').fill(service.demoUrl);
  await form.getByRole('button', { name: 'Start job' }).click();
  await form.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  const jobId = jobIdOf(form.url())!;

  // The list tab, untouched: the job arrives at the top and runs to its end there.
  const listed = row(page, jobId);
  await expect(listed).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('tbody tr').first()).toHaveAttribute('data-job-id', jobId);
  await expect(listed.getByRole('rowheader')).toHaveText(PASSING_TASK);
  await expect(listed).toHaveAttribute('data-status', 'passed', { timeout: 60_000 });
  await expect(listed.locator('.status')).toHaveText('passed');
  await expect(listed).toContainText('web');
  await expect(listed).toContainText('acme/shop');
  await expect(listed).toContainText('you (jobs_runner)');
  await expect(listed.locator('td').last()).toHaveText(/\d+(\.\d)? s|\d+ ms|min/);
  expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);

  await listed.getByRole('link', { name: PASSING_TASK }).click();
  await expect(page).toHaveURL(`${service.base}/jobs/${jobId}`);
});

test('a task that needs clarification shows its questions at once, and answering opens the child job', async ({ page, service, signIn, accessibilityViolations }) => {
  await signIn('jobs_answerer', 'member', { returnTo: '/jobs/new' });
  await page.getByLabel('Task', { exact: true }).fill(UNCLEAR_TASK);
  await page.getByRole('button', { name: 'Start job' }).click();

  const review = page.getByTestId('review-required');
  await expect(review.getByRole('heading', { name: 'This task needs answers first' })).toBeFocused();
  const parentId = (await review.getByRole('link').first().textContent())!.trim();
  const questions = review.getByRole('form', { name: 'Answer the questions' }).getByRole('textbox');
  await expect(questions).toHaveCount(1);
  expect(await accessibilityViolations()).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/new-job-review-desktop-light.png', fullPage: true });

  // An empty answer is asked for before anything is sent.
  await review.getByRole('button', { name: 'Answer' }).click();
  await expect(review.locator('.field-error')).toHaveText('Give an answer to this question');
  await expect(page).toHaveURL(`${service.base}/jobs/new`);

  await questions.first().fill('Yes: delete the demo account, it is disposable test data');
  await review.getByRole('button', { name: 'Answer' }).click();
  await page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  const childId = jobIdOf(page.url())!;
  expect(childId).not.toBe(parentId);
  const child = await page.request.get(`${service.base}/api/jobs/${childId}`);
  expect(child.status()).toBe(200);
  expect(((await child.json()) as { job: { parentJobId: string; trigger: string } }).job).toMatchObject({ parentJobId: parentId, trigger: 'web' });
});

test('filters narrow the list, live in the URL and survive a reload', async ({ page, service, signIn, accessibilityViolations }) => {
  await signIn('jobs_filterer', 'member', { returnTo: '/jobs/new' });
  await page.getByLabel('Task', { exact: true }).fill(UNCLEAR_TASK);
  await page.getByRole('button', { name: 'Start job' }).click();
  const parentId = (await page.getByTestId('review-required').getByRole('link').first().textContent())!.trim();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' }).click();
  await expect(row(page, parentId)).toBeVisible();
  const search = page.getByRole('search', { name: 'Filter jobs' });
  await search.getByLabel('Status').selectOption('review_required');
  await search.getByLabel('Task contains').fill('DEMO ACCOUNT');
  await expect(page).toHaveURL(/\?status=review_required&q=DEMO\+ACCOUNT$/);
  await expect(row(page, parentId)).toBeVisible();
  const statuses = page.locator('tbody tr');
  await expect(statuses.first()).toBeVisible();
  for (const status of await statuses.evaluateAll((rows) => rows.map((element) => element.getAttribute('data-status')))) expect(status).toBe('review_required');
  for (const task of await page.getByRole('rowheader').allTextContents()) expect(task.toLowerCase()).toContain('demo account');

  await page.reload();
  await expect(search.getByLabel('Status')).toHaveValue('review_required');
  await expect(search.getByLabel('Task contains')).toHaveValue('DEMO ACCOUNT');
  await expect(row(page, parentId)).toBeVisible();
  expect(await accessibilityViolations()).toEqual([]);

  // A filter nothing matches says so, with a way out.
  await search.getByLabel('Trigger').selectOption('schedule');
  await expect(page.getByText('No job matches these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Clear the filters' }).click();
  await expect(page).toHaveURL(`${service.base}/jobs`);
  await expect(search.getByLabel('Task contains')).toHaveValue('');
  await expect(row(page, parentId)).toBeVisible();
});

/**
 * A TCP proxy to the service on another loopback port (the session cookie is the host's, whatever the port): `cut`
 * drops every open connection and refuses new ones, as a service going away does; `restore` lets them through again.
 */
async function outageProxy(target: string) {
  const { port, hostname } = new URL(target);
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('when the service goes away the banner shows, and the list catches up from its cursor when it is back', async ({ page, service, signIn }) => {
  await signIn('jobs_offline', 'member');
  await expect(page.getByText('Updates live')).toBeVisible();
  const proxy = await outageProxy(service.base);
  try {
    await page.goto(`${proxy.url}/jobs`);
    await expect(page.getByText('Updates live')).toBeVisible();
    await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
    proxy.cut();
    await expect(page.getByTestId('connection-lost')).toBeVisible();

    // Started elsewhere (a CI client with the API key) while this page cannot hear it.
    const { key, repositoryId } = service.organizations.acme;
    const created = await callWithKey(key, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: UNCLEAR_TASK, baseUrl: service.demoUrl, networkAllowlist: [], trigger: 'cli' });
    expect(created.status).toBe(202);
    const jobId = created.body.jobId as string;
    await expect(row(page, jobId)).toHaveCount(0);

    proxy.restore();
    await expect(row(page, jobId)).toBeVisible({ timeout: 20_000 });
    await expect(row(page, jobId)).toHaveAttribute('data-status', 'review_required');
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-job-id', jobId);
    await expect(page.getByTestId('connection-lost')).toHaveCount(0);
    await expect(page.getByText('Updates live')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
  } finally {
    await page.goto('about:blank');
    proxy.cut();
    await proxy.close();
  }
});

test('"Load more" pages on by keyset: every job once, in order, until all are shown', async ({ page, service, signIn }) => {
  // Jobs awaiting answers never run: cheap to make many of.
  const { key, repositoryId } = service.organizations.acme;
  const created: string[] = [];
  for (let n = 0; n < 55; n++) {
    const answer = await callWithKey(key, 'POST', '/api/jobs', { projectId: repositoryId, naturalLanguageTask: `${UNCLEAR_TASK} number ${n}`, baseUrl: service.demoUrl, networkAllowlist: [], trigger: 'cli' });
    expect(answer.status).toBe(202);
    created.push(answer.body.jobId as string);
  }
  await signIn('jobs_pager', 'member', { returnTo: '/jobs?trigger=cli&q=account+number' });
  const rows = page.locator('tbody tr');
  await expect(rows).toHaveCount(50);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(page.getByText(/\d+ jobs, all shown\./)).toBeVisible();
  const shown = await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-job-id')));
  expect(shown).toHaveLength(created.length);
  expect(new Set(shown)).toEqual(new Set(created));
  const times = await page.locator('tbody time').evaluateAll((elements) => elements.map((element) => Date.parse(element.getAttribute('datetime')!)));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
});

test('a check to replay is preselected by ?testId=, with its repository', async ({ page, service, signIn }) => {
  const { checkId, repositoryId } = service.organizations.acme;
  await signIn('jobs_replayer', 'member', { returnTo: `/jobs/new?testId=${checkId}` });
  await expect(page.getByRole('radio', { name: 'A check to replay' })).toBeChecked();
  await expect(page.getByLabel('Check', { exact: true })).toHaveValue(checkId);
  await expect(page.getByLabel('Repository')).toHaveValue(repositoryId);
  await expect(page.getByLabel('Base URL')).toHaveValue(service.demoUrl);
});

test('screenshots of Jobs and New job, desktop and phone, light and dark', async ({ page, service, signIn }) => {
  await signIn('jobs_looker', 'member');
  await expect(page.getByRole('heading', { name: 'Jobs', level: 1 })).toBeVisible();
  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // Loaded: the list is live (its stream stays open, so "network idle" never comes), the form has its repository.
      for (const [name, path, loaded] of [
        ['jobs-list', '/jobs', () => page.getByText('Updates live')],
        ['new-job', '/jobs/new', () => page.getByLabel('Base URL')],
      ] as const) {
        await page.goto(`${service.base}${path}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(loaded()).toBeVisible();
        await expect(page.getByText(/^Loading/)).toHaveCount(0);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${viewport.name} is wider than the viewport`).toBeLessThanOrEqual(1);
        await page.screenshot({ path: `test-results/screens/${name}-${viewport.name}-${scheme}.png`, fullPage: true });
      }
    }
  }
});
