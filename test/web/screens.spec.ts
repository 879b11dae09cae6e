/**
 * Every screen, as an admin sees it, at a desktop and a phone size, in the light and the dark scheme: the service's
 * own accessibility audit (axe, what runs use) finds nothing serious or critical, nothing is wider than the phone,
 * and the keyboard reaches the navigation with a visible focus. Screenshots are kept in test-results/screens/ to
 * look at.
 */
import { expect, test } from './support/fixtures.js';

const SCREENS = [
  { path: '/jobs', heading: /jobs/i },
  { path: '/jobs/new', heading: /new job/i },
  { path: '/checks', heading: /checks/i },
  { path: '/repositories', heading: /repositories/i },
  { path: '/installations', heading: /installations/i },
  { path: '/keys', heading: /api keys/i },
  { path: '/execution', heading: /execution/i },
];
const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

test('every screen passes the accessibility audit in both schemes and fits a phone', async ({ page, service, signIn, accessibilityViolations }) => {
  test.setTimeout(240_000);
  await signIn('admin_screens', 'admin');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const screens = [...SCREENS, { path: `/checks/${service.organizations.acme.checkId}`, heading: /check/i }];
  const problems: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const screen of screens) {
        await page.goto(`${service.base}${screen.path}`);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await page.waitForLoadState('networkidle');
        // The audit at the desktop size, in both schemes (colours are what differ); the phone size is checked for fit.
        if (viewport.name === 'desktop') for (const violation of await accessibilityViolations()) problems.push(`${screen.path} ${viewport.name} ${scheme}: ${violation}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 1) problems.push(`${screen.path} ${viewport.name} ${scheme}: ${overflow}px wider than the viewport`);
        const name = screen.path.replaceAll('/', '_').replace(/^_/, '') || 'root';
        await page.screenshot({ path: `test-results/screens/${name}-${viewport.name}-${scheme}.png`, fullPage: true });
      }
    }
  }
  expect(problems).toEqual([]);
});

test('the keyboard reaches every link of the navigation, with a visible focus', async ({ page, service, signIn }) => {
  await signIn('admin_keyboard', 'admin');
  await page.goto(`${service.base}/jobs`);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const reached: string[] = [];
  for (let press = 0; press < 15; press++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      return { text: element.textContent?.trim() ?? '', outline: parseFloat(style.outlineWidth) > 0 && style.outlineStyle !== 'none' };
    });
    if (focused === null) continue;
    expect({ text: focused.text, outline: focused.outline }).toEqual({ text: focused.text, outline: true });
    reached.push(focused.text);
  }
  for (const label of ['Jobs', 'New job', 'Checks', 'Repositories', 'Installations', 'API keys', 'Execution']) expect(reached).toContain(label);
});
