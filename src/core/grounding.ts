/**
 * Grounding: which element of the live page a person's words mean, chosen from the page's accessibility snapshot
 * (Playwright's AI-mode `ariaSnapshotJSON`, given here as plain data) with the page's own words. Pure: the browser
 * takes the snapshot and acts (src/browser/ground.ts); this decides.
 *
 * A target resolves to exactly one element or to a clear refusal listing what the page offers: it never guesses.
 * The choice narrows in the order a person's words do:
 * 1. the kind of element: the target's role, or what the action can act on (a field to fill, a box to tick);
 * 2. the container the target is in ("the checkbox of Pay rent": the row, item, card or dialog that shows Pay rent);
 * 3. the name: the same words as the page's name, text or placeholder first, then the words the two share; a person's
 *    description that shares no word with anything still means the one element of its kind, when there is one;
 * 4. the position ("the second", "the last"), counted in page order.
 */
import { tablesNamed } from './named-tables.js';
import type { PlanStep, Target } from './plan.js';

/** A node of the snapshot as Playwright gives it: an element (with `ref` when it can be acted on) or a text run. */
export type SnapshotNode = string | SnapshotElement;

export interface SnapshotElement {
  role: string;
  name?: string;
  ref?: string;
  placeholder?: string;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  children?: SnapshotNode[];
  [other: string]: unknown;
}

/** One element or text run of the page, flattened in page order, with its ancestors. */
export interface GroundNode {
  role: string;
  /** Accessible name, or the text itself for a text run (`role` "text"). */
  name: string;
  placeholder?: string;
  ref?: string;
  /** Index of the element this text run belongs to (text runs have no ref: they are acted on by text). */
  parent?: number;
  /** Indexes of the ancestors, nearest first. */
  ancestors: number[];
  /** All the text inside it, names of descendants included, white space collapsed. */
  text: string;
  index: number;
  /** It has the keyboard focus. */
  active?: boolean;
  /** A link's address, as the page wrote it. */
  url?: string;
}

export type GroundingResult =
  | { kind: 'one'; node: GroundNode; container?: GroundNode; nodes: readonly GroundNode[]; how: string }
  | { kind: 'none' | 'several'; candidates: string[]; message: string };

/** Roles an action can act on when the target does not say which. */
const FIELD_ROLES = ['textbox', 'searchbox', 'combobox', 'spinbutton'];
const TICK_ROLES = ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'];
const PRESS_ROLES = ['button', 'link', 'menuitem', 'tab', 'option', 'checkbox', 'radio', 'switch', 'treeitem', 'text'];
/** Roles whose element is a container a row-like phrase can name ("in the row of Ada", "the Backpack card"). */
const CONTAINER_ROLES = ['listitem', 'row', 'article', 'group', 'dialog', 'alertdialog', 'region', 'form', 'cell', 'gridcell', 'option', 'tabpanel', 'navigation', 'generic', 'list', 'table', 'section', 'complementary', 'banner', 'contentinfo', 'main'];
/** Roles of elements found by what they hold ("the list with Pay rent") rather than by the row they are in. */
const HOLDING_ROLES = ['list', 'table', 'grid', 'listbox', 'tree', 'treegrid', 'tablist', 'menu', 'region', 'dialog', 'form', 'navigation', 'group', 'article'];

/** Same role, other words people use. */
const ROLE_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  textbox: FIELD_ROLES,
  searchbox: FIELD_ROLES,
  checkbox: ['checkbox', 'switch', 'menuitemcheckbox'],
  switch: ['switch', 'checkbox'],
  button: ['button', 'link', 'menuitem'],
  link: ['link', 'button'],
  combobox: ['combobox', 'listbox'],
  region: ['region', 'group', 'article', 'section', 'dialog', 'form'],
  list: ['list', 'table', 'grid', 'listbox'],
  listitem: ['listitem', 'row', 'article', 'option'],
  row: ['row', 'listitem'],
  tab: ['tab', 'link', 'button'],
  img: ['img'],
  heading: ['heading'],
};

/** The page in page order: every element and text run, with ancestors and contained text. */
export function flattenSnapshot(tree: readonly SnapshotNode[]): GroundNode[] {
  const nodes: GroundNode[] = [];
  const visit = (node: SnapshotNode, ancestors: number[]): string => {
    if (typeof node === 'string') {
      const text = collapse(node);
      if (text !== '') nodes.push({ role: 'text', name: text, text, ancestors, index: nodes.length, ...(ancestors[0] === undefined ? {} : { parent: ancestors[0] }) });
      return text;
    }
    const index = nodes.length;
    const own: GroundNode = {
      role: node.role,
      name: collapse(node.name ?? ''),
      ancestors,
      text: '',
      index,
      ...(node.ref === undefined ? {} : { ref: node.ref }),
      ...(typeof node.placeholder === 'string' ? { placeholder: collapse(node.placeholder) } : {}),
      ...(node.active === true ? { active: true } : {}),
      ...(typeof node.url === 'string' ? { url: node.url } : {}),
    };
    nodes.push(own);
    // An element whose content is only text carries it as `text` (a field's `text` is its value: not page text).
    const content: SnapshotNode[] = typeof node.text === 'string' && !FIELD_ROLES.includes(node.role) ? [node.text, ...(node.children ?? [])] : (node.children ?? []);
    const inner = content.map((child) => visit(child, [index, ...ancestors])).filter((text) => text !== '');
    own.text = collapse([own.name, ...inner].join(' '));
    return own.text;
  };
  for (const node of tree) visit(node, []);
  return nodes;
}

/**
 * The one element of `nodes` that `target` means for `action`, or why there is not one. `strict`: the words must match something; the rule that a description means the one element of its kind does not
 * apply (a label the page does not have is not "the only field there").
 */
export function groundTarget(nodes: readonly GroundNode[], action: PlanStep['action'], target: Target, options: { strict?: boolean } = {}): GroundingResult {
  const kinds = kindsFor(action, target);
  let candidates = nodes.filter((node) => kinds.includes(node.role) && (node.ref !== undefined || node.role === 'text'));
  const how: string[] = [];

  let containers: GroundNode[] = [];
  if (target.within !== undefined && HOLDING_ROLES.includes(target.role ?? '')) {
    // "The list that shows Pay rent": a list, table or section is found by what it holds, the innermost first.
    const text = target.within.text;
    const holding = candidates.filter((node) => contains(node.text, text));
    candidates = holding.filter((node) => !holding.some((other) => other !== node && other.ancestors.includes(node.index)));
    how.push(`the ${target.role} that shows ${JSON.stringify(text)}`);
  } else if (target.within !== undefined) {
    const within = target.within.text;
    // "Bach's row of the Example 1 table": only inside that table, when the page has several showing the same rows.
    if (target.within.table !== undefined) {
      const tables = tablesNamed(nodes, target.within.table);
      if (tables.length !== 1) {
        const message = tables.length === 0 ? `No table on the page is named ${JSON.stringify(target.within.table)}` : `${tables.length} tables are named ${JSON.stringify(target.within.table)}`;
        return refuse(tables.length === 0 ? 'none' : 'several', message, nodes.filter((node) => node.role === 'heading').map((node) => `heading ${JSON.stringify(node.name)}`));
      }
      candidates = candidates.filter((node) => node.ancestors.includes(tables[0]!.index));
      how.push(`in the table ${JSON.stringify(target.within.table)}`);
    }
    // The innermost containers that show the text and hold an element of the kind (a todo's label is a container of
    // its text, but its checkbox sits in the row around it). A target with a name of its own is not the label: "the
    // Add to cart of the Backpack" is in the card around the product's title link, not in the title's own box.
    const holding = target.name === '' ? candidates : candidates.filter((node) => !sameText(node.name, within));
    containers = containersShowing(nodes, within, (container) => holding.some((node) => node.ancestors.includes(container.index)));
    if (containers.length === 0) {
      return refuse('none', `Nothing on the page shows ${JSON.stringify(within)}`, nodes.filter((node) => node.role === 'text').map((node) => node.name));
    }
    const inside = candidates.filter((node) => containers.some((container) => node.ancestors.includes(container.index)));
    // The container's own label is not the element inside it ("the checkbox of Pay rent" is not the text Pay rent; the
    // Backpack's "Add to cart" is not the link that names the Backpack).
    candidates = inside.filter((node) => !((node.role === 'text' || target.name !== '') && sameText(node.name, within)));
    // Several in one container (a form of checkboxes each followed by its text, a field after its caption): the one
    // next to the text, when one is nearer than the others.
    const label = nodes.find((node) => node.role === 'text' && sameText(node.name, target.within!.text) && containers.some((container) => node.ancestors.includes(container.index)));
    if (candidates.length > 1 && label !== undefined) {
      const distance = (node: GroundNode) => Math.abs(node.index - label.index);
      const nearest = Math.min(...candidates.map(distance));
      let closest = candidates.filter((node) => distance(node) === nearest);
      // Between two as near: a box's text follows it ("☐ checkbox 1"), a field's caption comes before it.
      if (closest.length === 2) closest = closest.filter((node) => (TICK_ROLES.includes(node.role) ? node.index < label.index : node.index > label.index));
      if (closest.length === 1) candidates = closest;
    }
    how.push(`inside the ${containers[0]!.role} that shows ${JSON.stringify(target.within.text)}`);
  }

  if (target.name !== '') {
    // Strict: the page's words and the task's must hold one another, not merely share some.
    // In a row, a person's words for a control must hold it or be held by it: "Add to basket" is not the card's "Add
    // to wishlist", though they share a word.
    const least = options.strict === true || (target.by === 'description' && target.within !== undefined) ? 1 : 0;
    const scored = candidates.map((node) => ({ node, score: nameScore(node, target) })).filter((entry) => entry.score > least);
    const best = Math.max(0, ...scored.map((entry) => entry.score));
    if (best > 0) {
      candidates = scored.filter((entry) => entry.score === best).map((entry) => entry.node);
      how.push(best >= 3 ? `named ${JSON.stringify(target.name)}` : `whose words match ${JSON.stringify(target.name)}`);
      // "Add Sauce Labs Backpack to cart" where each product has an "Add to cart": the one whose card shows the
      // words its own name lacks.
      if (best === 2 && (candidates.length > 1 || options.strict === true)) {
        const near = nearestHolding(nodes, candidates, target.name);
        if (near.length === 0 && options.strict === true) return refuse('none', `Nothing on the page matches ${targetPhrase(target)}`, offered(nodes, kinds));
        if (near.length > 0) candidates = near;
      }
    } else if (options.strict === true || target.by !== 'description' || candidates.length !== 1) {
      return refuse('none', `Nothing on the page matches ${targetPhrase(target)}`, offered(nodes, kinds));
    } else {
      how.push(`the only ${candidates[0]!.role} there, for ${JSON.stringify(target.name)}`);
    }
  }
  // A text run inside an element that is itself a candidate is the same thing twice: keep the element. And a control
  // named as a text on the page also says is more likely meant than that text (a checkbox and its label).
  candidates = candidates.filter((node) => !(node.role === 'text' && node.parent !== undefined && candidates.some((other) => other.index === node.parent)));
  if (candidates.length > 1 && candidates.some((node) => node.role === 'text') && candidates.some((node) => node.role !== 'text') && action !== 'dblclick') {
    candidates = candidates.filter((node) => node.role !== 'text');
  }

  if (target.nth !== undefined) {
    const picked = target.nth === -1 ? candidates.at(-1) : candidates[target.nth - 1];
    if (picked === undefined) return refuse('none', `There are ${candidates.length} of ${targetPhrase(target)}, not ${target.nth}`, candidates.map(label));
    how.push(target.nth === -1 ? 'the last one' : `number ${target.nth} in page order`);
    candidates = [picked];
  }

  // Several alike and no word to tell them apart: the one with the focus is the one a person was just working in
  // ("double-click the todo, then type the new text into it").
  if (candidates.length > 1 && target.name === '' && target.within === undefined) {
    const focused = candidates.filter((node) => node.active === true);
    if (focused.length === 1) {
      candidates = focused;
      how.push('the one with the focus');
    }
  }

  // Of several in the role's family, the role the target names ("a button" over a link that says the same).
  if (candidates.length > 1 && target.role !== undefined && candidates.some((node) => node.role === target.role)) {
    candidates = candidates.filter((node) => node.role === target.role);
  }
  // Links that all go to the same address are one way there (a product's picture and its title).
  if (candidates.length > 1 && candidates.every((node) => node.role === 'link' && node.url !== undefined && node.url === candidates[0]!.url)) {
    candidates = [candidates[0]!];
    how.push('the first of the links there');
  }

  // "The list" with no name among several: a list whose every item is only a link is a menu (a site's navigation, a
  // set of filters), so the list of the page's own content is the one left, when one is.
  if (candidates.length > 1 && target.name === '' && target.within === undefined && target.nth === undefined && target.role === 'list') {
    const content = candidates.filter((node) => !isMenuOfLinks(nodes, node));
    if (content.length === 1) {
      candidates = content;
      how.push('the list that is not a menu of links');
    }
  }

  if (candidates.length === 1) {
    const node = candidates[0]!;
    const container = containers.find((item) => node.ancestors.includes(item.index)) ?? rowOf(nodes, node);
    return { kind: 'one', node, nodes, how: how.join(', '), ...(container === undefined ? {} : { container }) };
  }
  if (candidates.length === 0) return refuse('none', `Nothing on the page matches ${targetPhrase(target)}`, offered(nodes, kinds));
  return refuse('several', `${candidates.length} elements match ${targetPhrase(target)}; say which one (for example by its row or its position)`, candidates.map(label));
}

/** The innermost containers whose text shows `text`; an exact text run inside wins over a longer text holding it. */
function containersShowing(nodes: readonly GroundNode[], text: string, fits: (container: GroundNode) => boolean = () => true): GroundNode[] {
  const holding = nodes.filter((node) => node.role !== 'text' && CONTAINER_ROLES.includes(node.role) && contains(node.text, text) && fits(node));
  // Innermost: drop a container that holds another one of them.
  const innermost = holding.filter((node) => !holding.some((other) => other !== node && other.ancestors.includes(node.index)));
  const exact = innermost.filter((node) => nodes.some((child) => child.ancestors.includes(node.index) && sameText(child.name, text)));
  return exact.length > 0 ? exact : innermost;
}

/**
 * Of candidates whose names the target's words hold, those with the nearest ancestor that shows the rest of the
 * target's words (the product card around an "Add to cart"); none when no ancestor within four levels does.
 */
function nearestHolding(nodes: readonly GroundNode[], candidates: readonly GroundNode[], name: string): GroundNode[] {
  const depthOf = (node: GroundNode): number | undefined => {
    const own = new Set(contentWords(node.name));
    const rest = contentWords(name).filter((word) => !own.has(word));
    if (rest.length === 0) return undefined;
    for (const [depth, index] of node.ancestors.slice(0, 4).entries()) {
      const shown = new Set(contentWords(nodes[index]!.text));
      if (rest.every((word) => shown.has(word))) return depth;
    }
    return undefined;
  };
  const depths = candidates.map((node) => ({ node, depth: depthOf(node) })).filter((entry) => entry.depth !== undefined);
  const nearest = Math.min(...depths.map((entry) => entry.depth!));
  return depths.filter((entry) => entry.depth === nearest).map((entry) => entry.node);
}

/** The nearest row-like ancestor: where an element that is one of many alike is told apart. */
export function rowOf(nodes: readonly GroundNode[], node: GroundNode): GroundNode | undefined {
  for (const index of node.ancestors) {
    const ancestor = nodes[index]!;
    if (['listitem', 'row', 'article', 'option', 'dialog', 'alertdialog', 'group', 'region', 'form'].includes(ancestor.role)) return ancestor;
  }
  return undefined;
}

/**
 * The label a row is known by: the first text run inside it that is not the element's own name and shows nowhere
 * else in the row (a todo's title, a product's name).
 */
export function rowLabel(nodes: readonly GroundNode[], row: GroundNode, except?: GroundNode): string | undefined {
  const inside = nodes.filter((node) => node.ancestors.includes(row.index) && node !== except);
  for (const node of inside) {
    const text = node.role === 'text' ? node.name : ['heading', 'link', 'cell', 'gridcell'].includes(node.role) ? node.name : '';
    if (text !== '' && text.length <= 120 && (except === undefined || !sameText(text, except.name))) return text;
  }
  return undefined;
}

function kindsFor(action: PlanStep['action'], target: Target): readonly string[] {
  if (target.role !== undefined) return ROLE_FAMILIES[target.role] ?? [target.role];
  if (target.by === 'label' || target.by === 'placeholder') return [...FIELD_ROLES, ...TICK_ROLES];
  switch (action) {
    case 'fill':
    case 'clear':
    case 'expectValue':
      return FIELD_ROLES;
    case 'upload':
      // A file input shows as a button ("Choose File").
      return [...FIELD_ROLES, 'button'];
    case 'select':
      return ['combobox', 'listbox', ...TICK_ROLES, 'option'];
    case 'check':
      return TICK_ROLES;
    case 'click':
    case 'dblclick':
    case 'rightClick':
    case 'hover':
    case 'press':
    case 'dragTo':
      return PRESS_ROLES.concat(['listitem', 'row', 'img', 'heading', 'cell', 'gridcell']);
    default:
      return ['heading', 'text', 'button', 'link', 'img', 'listitem', 'row', 'cell', 'gridcell', 'checkbox', 'radio', 'textbox', 'combobox', 'list', 'table', 'region', 'dialog', 'alert', 'status', 'tab', 'paragraph'];
  }
}

/** 4: the same words; 3: the page's name holds the target's words; 2: the other way round; 1: some content words shared. */
function nameScore(node: GroundNode, target: Target): number {
  const names = [node.name, node.placeholder ?? ''].filter((name) => name !== '').flatMap(withAlternatives);
  let best = 0;
  for (const name of names) {
    if (sameText(name, target.name)) best = Math.max(best, 4);
    else if (!target.exact && contains(name, target.name)) best = Math.max(best, 3);
    else if (!target.exact && target.by === 'description' && name.length >= 3 && (contains(target.name, name) || wordsWithin(name, target.name))) best = Math.max(best, 2);
    // In a row, a control that says the action and the row's own words: "Add Desk Lamp to cart" for "Add to cart".
    else if (!target.exact && target.by === 'description' && target.within !== undefined && wordsWithin(target.name, name)) best = Math.max(best, 2);
    else if (!target.exact && target.by === 'description') {
      const wanted = contentWords(target.name);
      const shown = new Set(contentWords(name));
      const shared = wanted.filter((word) => shown.has(word)).length;
      if (shared > 0 && shared * 2 >= wanted.length) best = Math.max(best, 1);
    }
  }
  return best;
}

/** A name with alternatives written with a slash, and each alternative alone: "Zip/Postal Code", "Zip Code", "Postal Code". */
function withAlternatives(name: string): string[] {
  const slashed = /([\p{L}\p{N}]+)\s*\/\s*([\p{L}\p{N}]+)/u.exec(name);
  if (slashed === null) return [name];
  const before = name.slice(0, slashed.index);
  const after = name.slice(slashed.index + slashed[0].length);
  return [name, `${before}${slashed[1]!}${after}`, `${before}${slashed[2]!}${after}`];
}

const STOP_WORDS = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'with', 'and', 'or', 'field', 'box', 'input', 'button', 'link', 'item', 'items', 'new', 'your', 'my', 'this', 'that', 'is', 'what']);

/** Lower-case words without the ones that only say what kind of thing it is, each with a plural's s dropped. */
export function contentWords(text: string): string[] {
  return collapse(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/**
 * Every content word of `inner` is a word of `outer` ("Add to cart" within "Add the Backpack to the cart"); two words
 * written as one on either side count as that one ("wish list" and "Wishlist", "check out" and "Checkout").
 */
function wordsWithin(inner: string, outer: string): boolean {
  const all = new Set(withJoined(contentWords(outer)));
  const words = contentWords(inner);
  const kept: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const joined = `${words[i]}${words[i + 1] ?? ''}`;
    if (i + 1 < words.length && all.has(joined)) {
      kept.push(joined);
      i += 1;
    } else kept.push(words[i]!);
  }
  return kept.length > 0 && kept.every((word) => all.has(word));
}

function withJoined(words: readonly string[]): string[] {
  return [...words, ...words.slice(1).map((word, i) => `${words[i]!}${word}`)];
}

function offered(nodes: readonly GroundNode[], kinds: readonly string[]): string[] {
  return nodes.filter((node) => kinds.includes(node.role) && node.role !== 'text' && node.ref !== undefined).map(label);
}

function label(node: GroundNode): string {
  const name = node.name !== '' ? node.name : node.placeholder ?? '';
  return name === '' ? node.role : `${node.role} ${JSON.stringify(name.length > 60 ? `${name.slice(0, 57)}…` : name)}`;
}

function refuse(kind: 'none' | 'several', message: string, candidates: string[]): GroundingResult {
  const unique = [...new Set(candidates)].slice(0, 12);
  return { kind, candidates: unique, message: unique.length > 0 ? `${message}. The page offers: ${unique.join(', ')}` : message };
}

/** How a message names a target: `"Pay rent"`, `the checkbox inside "Pay rent"`. */
function targetPhrase(target: Target): string {
  const kind = target.role ?? (target.by === 'description' ? 'element' : target.by);
  const name = target.name === '' ? `the ${kind}` : `${JSON.stringify(target.name)}`;
  const where = target.within === undefined ? '' : ` inside ${JSON.stringify(target.within.text)}`;
  const which = target.nth === undefined ? '' : target.nth === -1 ? ' (the last)' : ` (number ${target.nth})`;
  return `${name}${where}${which}`;
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function normal(text: string): string {
  return collapse(text).toLowerCase();
}

function sameText(a: string, b: string): boolean {
  return normal(a) === normal(b);
}

function contains(haystack: string, needle: string): boolean {
  return normal(haystack).includes(normal(needle));
}

/** A list whose items each hold one link and nothing else to act on or read beside it. */
function isMenuOfLinks(nodes: readonly GroundNode[], list: GroundNode): boolean {
  // Its own items: the list items whose nearest list is this one (ancestors are indexes into `nodes`, nearest first).
  const items = nodes.filter((node) => node.role === 'listitem' && node.ancestors.find((index) => nodes[index]?.role === 'list') === list.index);
  if (items.length === 0) return false;
  return items.every((item) => {
    const inside = nodes.filter((node) => node.ancestors.includes(item.index) && node.role !== 'text' && node.role !== 'generic');
    const links = inside.filter((node) => node.role === 'link');
    return links.length === 1 && inside.every((node) => node.role === 'link' || node.ancestors.includes(links[0]!.index));
  });
}
