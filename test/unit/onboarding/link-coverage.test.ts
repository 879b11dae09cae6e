import { describe, expect, it } from '@jest/globals';
import type { CompiledCheck, CompiledStep } from '../../../src/core/check.js';
import { discoverFlows } from '../../../src/onboarding/discover/discover-flows.js';
import { linkCoverage } from '../../../src/onboarding/discover/link-coverage.js';
import type { DiscoveredFlow } from '../../../src/onboarding/model.js';
import { field, page } from './discover-support.js';

const check = (...steps: CompiledStep[]): CompiledCheck => ({ steps, successCriteria: [], sideEffects: false, allowedSideEffects: [] });
const go = (url: string): CompiledStep => ({ step: { action: 'navigate', description: `Open ${url}`, url } });
const fill = (label: string, resolved = label): CompiledStep => ({
  step: { action: 'fill', description: `Fill ${label}`, target: { by: 'label', name: label, exact: false }, value: { kind: 'literal', text: 'x' } },
  locator: { strategy: 'label', name: resolved, exact: true },
});
const click = (name: string, role = 'button'): CompiledStep => ({
  step: { action: 'click', description: `Click ${name}`, target: { by: 'role', role, name, exact: true } },
  locator: { strategy: 'role', role, name, exact: true },
});

const flow = (key: string, entryPath: string, controls: string[]): DiscoveredFlow => ({
  key,
  name: key,
  entryPath,
  task: `Open ${entryPath}.`,
  steps: [`Open ${entryPath}.`],
  controls,
  files: [],
  origin: 'crawl',
  sideEffect: null,
  value: 1,
  edgeCases: [],
});

describe('linkCoverage', () => {
  const todo = [flow('add-todo-home', '/', ['What needs to be done?', 'Add']), flow('open-completed', '/completed', []), flow('product-details', '/products/:id', [])];

  it('links a check by the entry path it opens, its controls, or both, and says which', () => {
    const links = linkCoverage({
      flows: todo,
      checks: [
        { checkId: 'adds', compiled: check(go('/'), fill('What needs to be done?'), click('Add')) },
        { checkId: 'completed', compiled: check(go('http://127.0.0.1:3000/completed?x=1')) },
        { checkId: 'deep-link-add', compiled: check(go('/other'), fill('what needs to be done?'), click('Add')) },
        { checkId: 'product', compiled: check(go('/products/42')) },
      ],
    });
    expect(links).toEqual([
      { flowKey: 'add-todo-home', checkId: 'adds', reason: 'route+controls' },
      { flowKey: 'open-completed', checkId: 'completed', reason: 'route' },
      { flowKey: 'add-todo-home', checkId: 'deep-link-add', reason: 'controls' },
      { flowKey: 'product-details', checkId: 'product', reason: 'route' },
    ]);
  });

  it('does not link a check that only shares a field, or never presses what sends the form', () => {
    const signIn = flow('sign-in-login', '/login', ['Email', 'Password', 'Sign in']);
    const links = linkCoverage({
      flows: [signIn],
      checks: [
        { checkId: 'newsletter', compiled: check(go('/news'), fill('Email'), click('Subscribe')) },
        { checkId: 'typed-only', compiled: check(go('/account'), fill('Email'), fill('Password')) },
      ],
    });
    expect(links).toEqual([]);
  });

  it('links discovered flows to a check compiled from a shop run that signed in and added a product', () => {
    const flows = discoverFlows({
      index: null,
      pages: [
        page('/', 'Swag Labs', { forms: [{ fields: [field('Username'), field('Password', 'password')], submitLabel: 'Login', method: 'GET', action: null }] }),
        page('/inventory.html', 'Products', { controls: [{ role: 'button', name: 'Add to cart' }, { role: 'link', name: 'Cart' }] }),
      ],
    });
    // The planner wrote "Email"; the run resolved it to the field the page calls Username.
    const compiled = check(go('/'), fill('Email', 'Username'), fill('Password'), click('Login'), { step: { action: 'click', description: 'Add the first product', target: { by: 'description', role: 'button', name: 'Add to cart', exact: false } }, locator: { strategy: 'role', role: 'button', name: 'Add to cart', exact: true, nth: 0 } });
    expect(linkCoverage({ flows, checks: [{ checkId: 'c1', compiled }] })).toEqual([
      { flowKey: 'sign-in-home', checkId: 'c1', reason: 'route+controls' },
      { flowKey: 'add-to-cart-inventory-html', checkId: 'c1', reason: 'controls' },
    ]);
  });
});
