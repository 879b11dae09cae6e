/**
 * Flows from the joined crawl and index (surfaces.ts): one per form (sign in, search, a contact form…), the shop's
 * journeys read from its controls (add a product to the cart; from the cart to checkout), and a visit of each other
 * page, bounded and ranked so that an app of hundreds of pages yields tens of flows, the valuable ones first. Pure
 * and with no network: every task is text the rule planner runs as written.
 */
import type { DiscoveredFlow, EdgeCase, FlowOrigin, IndexedRoute, RepositoryIndex, CrawledPage } from '../model.js';
import { formEdgeCases, signedOutAccess } from './edge-cases.js';
import { formKind, kindName, type FormFacts, type FormKind } from './form-kinds.js';
import { fillSentences, formControls, stillShownSentence, submitSentence } from './form-steps.js';
import { pathOnly } from './route-match.js';
import { sideEffectOf } from './side-effect-of.js';
import { buildSurfaces, compareRank, type SignInPlace, type Surface } from './surfaces.js';
import { cleanLabel, flowKey } from './words.js';

/** At most this many flows, and of them at most MAX_VISIT_FLOWS plain page visits. */
export const MAX_FLOWS = 40;
export const MAX_VISIT_FLOWS = 12;

export interface DiscoverInput {
  index: RepositoryIndex | null;
  pages: readonly CrawledPage[];
}

const BASE_VALUE: Record<FormKind | 'cart' | 'home' | 'visit', number> = {
  sign_in: 100,
  checkout: 90,
  cart: 85,
  sign_up: 75,
  search: 65,
  home: 60,
  contact: 55,
  subscribe: 50,
  form: 50,
  visit: 20,
};

const ADD_TO_CART = /^add\b.{0,40}\bto (?:the |my |your )?(?:cart|bag|basket|trolley)\b/i;
const CHECKOUT = /^(?:proceed to |go to )?check ?out\b/i;
const CART = /\b(?:cart|basket|bag|trolley)\b/i;
/** Signing out ends the session a flow needs and is no journey of its own: its form (often in every page's header) is never a flow. */
const SIGN_OUT = /\b(?:sign|log)\s*(?:out|off)\b/i;
/** A control that counts what is in the cart (Swag Labs' `shopping_cart_badge`): the one thing to check after adding. */
const CART_BADGE = /\b(?:cart|basket|bag)\b.*\b(?:badge|count)\b|\bbadge\b/i;

interface Draft {
  kindKey: string;
  name: string;
  surfaces: Surface[];
  steps: string[];
  controls: string[];
  extraFiles: string[];
  base: number;
  edgeCases: EdgeCase[];
}

function origin(surfaces: readonly Surface[]): FlowOrigin {
  const origins = new Set(surfaces.map((surface) => surface.origin));
  if (origins.has('both') || (origins.has('source') && origins.has('crawl'))) return 'both';
  return origins.has('crawl') ? 'crawl' : 'source';
}

/** The steps that bring a run to `surface`: signing in first when the page is behind sign-in. */
function opening(surface: Surface, signIn: SignInPlace | undefined): string[] {
  if (surface.behindSignIn && signIn !== undefined) return [`Open ${signIn.surface.path}.`, 'Sign in.', `Open ${surface.path}.`];
  return [`Open ${surface.path}.`];
}

function signedOut(surface: Surface, signIn: SignInPlace | undefined): EdgeCase[] {
  return surface.behindSignIn && signIn !== undefined ? [signedOutAccess(surface.path, signIn.form)] : [];
}

/** Files of the server routes a form posts to (an Express `POST /login` handler is part of signing in). */
function handlerFiles(form: FormFacts, routes: readonly IndexedRoute[]): string[] {
  if (form.action === null || !form.action.startsWith('/')) return [];
  const path = pathOnly(form.action);
  return routes.filter((route) => pathOnly(route.path) === path && route.methods.includes(form.method.toUpperCase())).flatMap((route) => route.files);
}

function formDraft(surface: Surface, form: FormFacts, kind: FormKind, signIn: SignInPlace | undefined, routes: readonly IndexedRoute[], shared: ReadonlySet<string>): Draft {
  const open = opening(surface, signIn);
  const name = kindName(kind, shared.has(surface.title) ? '' : surface.title, cleanLabel(form.submitLabel), pathOnly(surface.path));
  let steps: string[];
  if (kind === 'sign_in') {
    steps = [...open, 'Sign in.', stillShownSentence(form).replace(' is still shown', ' is no longer shown').replace('the page still shows the form', 'the form is no longer shown')];
  } else {
    steps = [...open, ...fillSentences(form), submitSentence(form)];
    if (kind === 'search' && form.method.toUpperCase() === 'GET') steps.push('Check that the URL contains "test".');
  }
  return {
    kindKey: kind.replace('_', '-'),
    name,
    surfaces: [surface],
    steps,
    controls: formControls(form),
    extraFiles: handlerFiles(form, routes),
    base: BASE_VALUE[kind],
    edgeCases: [...formEdgeCases({ opening: open, form, kind }), ...signedOut(surface, signIn)],
  };
}

function controlNamed(surface: Surface, pattern: RegExp): { role: string; name: string } | undefined {
  const control = surface.controls.find((each) => pattern.test(each.name));
  if (control !== undefined) return control;
  // The index knows controls only by their test ids: `add-to-cart-backpack` → "add to cart backpack".
  const testId = surface.testIds.map((id) => id.replace(/[-_]+/g, ' ')).find((words) => pattern.test(words));
  return testId === undefined ? undefined : { role: 'button', name: pattern === ADD_TO_CART ? 'Add to cart' : 'Checkout' };
}

const count = (surface: Surface, pattern: RegExp) => surface.controls.filter((each) => pattern.test(each.name)).length + surface.testIds.filter((id) => pattern.test(id.replace(/[-_]+/g, ' '))).length;

/** The shop's two journeys: add a product (from the page listing most), then go from the cart to checkout. */
function shopDrafts(surfaces: Surface[], signIn: SignInPlace | undefined, checkoutForm: { surface: Surface; form: FormFacts } | undefined): Draft[] {
  const listing = surfaces
    .filter((surface) => count(surface, ADD_TO_CART) > 0)
    .sort((a, b) => count(b, ADD_TO_CART) - count(a, ADD_TO_CART) || pathOnly(a.path).length - pathOnly(b.path).length)[0];
  if (listing === undefined) return [];
  const add = controlNamed(listing, ADD_TO_CART)!;
  const hasCart = surfaces.some((surface) => CART.test(surface.path) || surface.controls.some((each) => CART.test(each.name) && !ADD_TO_CART.test(each.name)));
  const addSteps = [...opening(listing, signIn), 'Add the first product on the list to the cart.'];
  // Only where the app shows a count of the cart: other shops show the added product in ways no rule can foresee.
  const hasBadge = hasCart && surfaces.some((surface) => surface.testIds.some((id) => CART_BADGE.test(id.replace(/[-_]+/g, ' '))) || surface.controls.some((each) => CART_BADGE.test(each.name)));
  const drafts: Draft[] = [
    {
      kindKey: 'add-to-cart',
      name: 'Add a product to the cart',
      surfaces: [listing],
      steps: hasBadge ? [...addSteps, 'Check that the cart badge shows 1.'] : addSteps,
      controls: [cleanLabel(add.name)],
      extraFiles: [],
      base: BASE_VALUE.cart,
      edgeCases: signedOut(listing, signIn),
    },
  ];
  // The cart is the page that offers the checkout: one named a cart first, never the checkout page itself.
  const cart = surfaces
    .filter((surface) => surface !== listing && !/check-?out/i.test(pathOnly(surface.path)) && controlNamed(surface, CHECKOUT) !== undefined)
    .sort((a, b) => Number(CART.test(pathOnly(b.path))) - Number(CART.test(pathOnly(a.path))))[0];
  if (cart === undefined) return drafts;
  const checkout = controlNamed(cart, CHECKOUT)!;
  const toForm = [...addSteps, `Open ${cart.path}.`, `Click the "${cleanLabel(checkout.name)}" ${checkout.role === 'link' ? 'link' : 'button'}.`];
  const formSteps = checkoutForm === undefined ? [] : [...fillSentences(checkoutForm.form), submitSentence(checkoutForm.form)];
  drafts.push({
    kindKey: 'checkout',
    name: 'Checkout',
    surfaces: [listing, cart, ...(checkoutForm === undefined ? [] : [checkoutForm.surface])],
    steps: [...toForm, ...formSteps],
    controls: [cleanLabel(checkout.name), ...(checkoutForm === undefined ? [] : formControls(checkoutForm.form))],
    extraFiles: [],
    base: BASE_VALUE.checkout,
    edgeCases: checkoutForm === undefined ? [] : formEdgeCases({ opening: toForm, form: checkoutForm.form, kind: 'checkout' }),
  });
  return drafts;
}

/** A title many pages share (the site's name) tells none of them apart: those pages go by their path. */
function visitDraft(surface: Surface, signIn: SignInPlace | undefined, sharedTitles: ReadonlySet<string>): Draft {
  const home = pathOnly(surface.path) === '/';
  const title = sharedTitles.has(surface.title) ? '' : surface.title;
  const what = title !== '' ? title : pathOnly(surface.path);
  const check = title !== '' ? `Check that the title is "${title}".` : `Check that the URL contains "${pathOnly(surface.path)}".`;
  return {
    kindKey: 'open',
    name: home ? 'Open the home page' : `Open ${what}`,
    surfaces: [surface],
    steps: [...opening(surface, signIn), check],
    controls: [],
    extraFiles: [],
    base: home ? BASE_VALUE.home : BASE_VALUE.visit,
    edgeCases: signedOut(surface, signIn),
  };
}

function finish(draft: Draft): DiscoveredFlow {
  const entry = draft.surfaces[0]!;
  const files = [...new Set([...draft.surfaces.flatMap((surface) => surface.files), ...draft.extraFiles])].sort();
  const task = draft.steps.join(' ');
  const inbound = Math.max(...draft.surfaces.map((surface) => surface.inbound));
  const value = draft.base + 2 * Math.min(files.length, 10) + Math.min(inbound, 5) + (origin(draft.surfaces) === 'both' ? 5 : 0);
  return {
    key: flowKey(draft.kindKey, pathOnly(entry.path)),
    name: draft.name,
    entryPath: entry.path,
    task,
    steps: draft.steps,
    controls: draft.controls.filter((control) => control !== ''),
    files,
    origin: origin(draft.surfaces),
    sideEffect: sideEffectOf(task),
    value,
    edgeCases: uniqueKeys(draft.edgeCases),
  };
}

function uniqueKeys<T extends { key: string }>(items: T[]): T[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const times = seen.get(item.key) ?? 0;
    seen.set(item.key, times + 1);
    return times === 0 ? item : { ...item, key: `${item.key}-${times + 1}` };
  });
}

/** Where a form shared by several pages (a header search) is offered: the shortest, most linked path. */
const entryRank = (surface: Surface) => [surface.behindSignIn ? 1 : 0, pathOnly(surface.path).split('/').length, surface.path.length, -surface.inbound];

export function discoverFlows(input: DiscoverInput): DiscoveredFlow[] {
  const routes = input.index?.routes ?? [];
  const { surfaces, signIn } = buildSurfaces(input.index, input.pages);

  // One flow per distinct form, at its best page.
  const forms = new Map<string, { surface: Surface; form: FormFacts; kind: FormKind }>();
  for (const surface of surfaces) {
    for (const form of surface.forms) {
      if (form.submitLabel !== null && SIGN_OUT.test(form.submitLabel)) continue;
      const kind = formKind(form, surface.path);
      const same = `${kind}|${form.submitLabel}|${form.fields.map((field) => `${field.label}/${field.name}/${field.type}`).join(',')}`;
      const known = forms.get(same);
      if (known === undefined || compareRank(entryRank(surface), entryRank(known.surface)) < 0) forms.set(same, { surface, form, kind });
    }
  }
  const checkoutForm = [...forms.values()].find((each) => each.kind === 'checkout');
  const shop = shopDrafts(surfaces, signIn, checkoutForm);
  const absorbed = shop.some((draft) => draft.kindKey === 'checkout') ? checkoutForm : undefined;
  const shared = sharedTitles(surfaces);
  const formFlows = [...forms.values()].filter((each) => each !== absorbed).map(({ surface, form, kind }) => formDraft(surface, form, kind, signIn, routes, shared));

  const used = new Set([...formFlows, ...shop].map((draft) => draft.surfaces[0]!));
  const seenRoutes = new Set<IndexedRoute | string>();
  const visits = surfaces
    .filter((surface) => !used.has(surface))
    .filter((surface) => {
      const same = surface.route ?? pathOnly(surface.path);
      if (seenRoutes.has(same)) return false;
      seenRoutes.add(same);
      return true;
    })
    .map((surface) => finish(visitDraft(surface, signIn, shared)))
    .sort(byValue)
    .slice(0, MAX_VISIT_FLOWS);

  const flows = uniqueKeys([...[...formFlows, ...shop].map(finish), ...visits].sort(byValue)).slice(0, MAX_FLOWS);
  return flows;
}

function sharedTitles(surfaces: readonly Surface[]): Set<string> {
  const counts = new Map<string, number>();
  for (const surface of surfaces) if (surface.title !== '') counts.set(surface.title, (counts.get(surface.title) ?? 0) + 1);
  return new Set([...counts].filter(([, times]) => times > 1).map(([title]) => title));
}

function byValue(a: DiscoveredFlow, b: DiscoveredFlow): number {
  return b.value - a.value || a.key.localeCompare(b.key);
}
