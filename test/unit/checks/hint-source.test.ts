/**
 * The generated source of a hidden element the run checked by the locator it saw ("the cart badge is gone") and of a
 * count of cards: one Playwright assertion on that stored CSS locator, not every way of naming the words.
 */
import { describe, expect, it } from '@jest/globals';
import { generatePlaywrightSource } from '../../../src/checks/generate-source.js';
import { compiledCheckSchema } from '../../../src/core/check.js';

const CHECK = compiledCheckSchema.parse({
  steps: [
    { step: { action: 'navigate', description: 'Open the shop', url: '/' } },
    {
      step: { action: 'expectState', description: 'Expect the cart badge to be hidden', target: { by: 'description', name: 'cart badge' }, state: 'hidden' },
      locator: { strategy: 'css', name: '.shopping_cart_badge', exact: false },
    },
    { step: { action: 'expectCount', description: 'Expect 6 products', target: { by: 'role', role: 'list', name: 'products' }, count: 6 }, locator: { strategy: 'css', name: '.inventory_item', exact: false } },
  ],
  successCriteria: [],
});
const lines = generatePlaywrightSource({ name: 'Hints', check: CHECK, baseUrl: 'https://shop.example.test', testValueSecretRefs: {}, evidenceProbeRefs: {} })
  .split('\n')
  .map((line) => line.trim());

describe('generated source of elements found by their hints', () => {
  it('checks a hidden element by its stored locator alone', () => {
    const hidden = lines.filter((line) => line.endsWith('.toHaveCount(0, { timeout: STEP_TIMEOUT_MS });'));
    expect(hidden).toEqual(['await expect(visible(page.locator(".shopping_cart_badge"))).toHaveCount(0, { timeout: STEP_TIMEOUT_MS });']);
  });

  it('counts the cards by their stored locator', () => {
    expect(lines).toContain('await expect(visible(page.locator(".inventory_item"))).toHaveCount(6, { timeout: STEP_TIMEOUT_MS });');
  });
});
