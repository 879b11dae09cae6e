/**
 * The actions people use beyond click and type: "double-click the second todo", "hover over the first avatar",
 * "reload the page", "go back", "go forward", "clear the search field", "drag Card A onto Done", "upload report.pdf to
 * the Attachment field", "scroll to the footer", "change it to 'buy sausages'" (the field being edited), "type 'milk'"
 * with no field named (the field that has the focus, or the only one), "click outside" (the field loses the focus).
 */
import type { PlanStep, Target } from '../core/plan.js';
import { itemRefs } from './item-steps.js';
import { isTitle, readNavigation } from './navigation.js';
import { steps, type Reading, type ReadingContext } from './reading.js';
import { apposedName, describeTarget, readTarget, type TargetKind } from './targets.js';
import { matchOutsideQuotes, slugKey, trimPunctuation, unquote } from './words.js';

const FOCUSED_FIELD: Target = { by: 'role', role: 'textbox', name: '', exact: false };

export function readPageAction(clause: string, context: ReadingContext): Reading | undefined {
  const text = trimPunctuation(clause).replace(/\s+(?:again|once more|one more time)$/i, '');
  if (/^(?:reload|refresh|reload the page|refresh the page|reload the browser|refresh the browser|reload it|refresh it)(?:\s+page)?$/i.test(text)) {
    return steps([{ action: 'reload', description: 'Reload the page' }]);
  }
  if (/^(?:(?:go|navigate|step)\s+back(?:\s+(?:a|one)\s+page)?|(?:press|click|hit|use|tap)\s+(?:on\s+)?(?:the\s+)?(?:browser(?:'s)?\s+)?back(?:\s+button)?)(?:\s+(?:in|using|with)\s+(?:the\s+)?browser(?:'s back button)?)?$/i.test(text)) {
    return steps([{ action: 'goBack', description: 'Go back in the browser' }]);
  }
  if (/^(?:(?:go|navigate|step)\s+forward(?:\s+(?:a|one)\s+page)?|(?:press|click|hit|use|tap)\s+(?:on\s+)?(?:the\s+)?(?:browser(?:'s)?\s+)?forward(?:\s+button)?)(?:\s+(?:in|using|with)\s+(?:the\s+)?browser)?$/i.test(text)) {
    return steps([{ action: 'goForward', description: 'Go forward in the browser' }]);
  }
  if (/^(?:click|tap)\s+(?:somewhere\s+)?(?:outside|away|elsewhere)(?:\s+(?:of\s+)?(?:it|the field|the input|the box))?$|^(?:leave|exit|blur|unfocus)\s+(?:the\s+)?(?:edit(?:ing)?\s+|text\s+)?(?:field|input|box|it)(?:\s+without\s+.+)?$|^(?:move|take)\s+(?:the\s+)?focus\s+away$/i.test(text)) {
    return steps([{ action: 'press', description: 'Move the focus out of the field (Tab)', key: 'Tab' }], [`Reads "${clause}" as moving the focus out of the field with Tab.`]);
  }

  // "the input is empty", "the new todo field should be empty": the field, by what it is for.
  const empty = matchOutsideQuotes(
    text,
    /^(?:(?:check|verify|ensure|make sure|confirm|expect|assert)(?:\s+that)?\s+)?(?:the\s+)?((?:[\w-]+\s+){0,3}?)(?:input|field|text ?field|text ?box|box|entry)\s+(?:is|should be|stays|remains|must be|has been|gets|was)\s+(?:now\s+|still\s+|again\s+)?(?:empty|blank|cleared|clear)(?:\s+(?:now|again))?$/i,
  );
  // A field with a label of its own ("the Coupon field is empty") is the assertion reader's.
  if (empty !== undefined && (empty[1]!.trim() === '' || /^(?:new|edit|add|the new)\b/i.test(empty[1]!.trim()))) {
    const words = empty[1]!.trim();
    const target: Target = words === '' ? FOCUSED_FIELD : { by: 'description', role: 'textbox', name: words, exact: false };
    const key = slugKey(text.replace(/^(?:check|verify|ensure|make sure|confirm|expect|assert)(?:\s+that)?\s+/i, ''));
    return steps([{ action: 'expectValue', description: `Expect ${words === '' ? 'the text field' : describeTarget(target)} to be empty`, target, text: '', criterion: key }], [], [{ key, description: text }]);
  }

  // "On the Hovers page, …": where the rest happens; the run opens it unless it is there already.
  // "On JavaScript Alerts, …": a page's name in title case and nothing else is a page too.
  const on = matchOutsideQuotes(text, /^(?:on|in|from|at|starting (?:on|from|at))\s+((?:the\s+)?.+?\s(?:page|screen|view|example|form))$/i) ?? matchOutsideQuotes(text, /^(?:[Oo]n|[Ff]rom|[Ss]tarting (?:on|from))\s+((?:the\s+)?[A-Z].*)$/);
  if (on !== undefined && (/\s(?:page|screen|view|example|form)$/i.test(on[1]!) || isTitle(on[1]!))) {
    const reading = readNavigation(`go to ${on[1]!}`);
    if (reading.kind === 'steps') return reading;
  }

  // "click it again", "tick it again": the last step's target once more (a tick of a ticked box unticks it: a click).
  const again = matchOutsideQuotes(trimPunctuation(clause), /^(?:click|tap|press|hit|tick|untick|toggle|check|uncheck)\s+(?:on\s+)?(?:it|that|the same (?:one|button|box|checkbox))\s+(?:again|once more)\b.*$/i);
  const last = context.lastActed;
  if (again !== undefined && last !== undefined && (last.action === 'click' || last.action === 'check')) {
    return steps([{ action: 'click', description: `${last.description.replace(/^(?:Check|Uncheck)\b/, 'Click')} again`, target: last.target }]);
  }
  // "check that it is ticked", "it should now be disabled": the element the task just acted on.
  // "it becomes the highlighted filter", "it is highlighted in turn": chosen among its siblings.
  const itState = matchOutsideQuotes(
    text,
    /^(?:(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+)?(?:it|that|this|that one)\s+(?:is|should be|must be|stays|remains|becomes|should become|gets|is now shown as|is shown as)\s+(?:now\s+|still\s+)?(not\s+|no longer\s+)?(?:the\s+)?(checked|ticked|unchecked|unticked|selected|enabled|disabled|visible|hidden|focused|highlighted|current)(?:\s+(?:one|filter|tab|link|option|item|view|page))?(?:\s+(?:in turn|now|too|as well|instead))?$/i,
  );
  const acted = context.lastActed;
  if (itState !== undefined && acted !== undefined && 'target' in acted && acted.target !== undefined) {
    const word = itState[2]!.toLowerCase();
    const base = ({ ticked: 'checked', unticked: 'unchecked', highlighted: 'selected', current: 'selected' } as Record<string, string>)[word] ?? word;
    const opposite: Record<string, string> = { checked: 'unchecked', unchecked: 'checked', enabled: 'disabled', disabled: 'enabled', visible: 'hidden', hidden: 'visible', selected: 'unselected' };
    const state = (itState[1] === undefined ? base : opposite[base] ?? base) as Extract<PlanStep, { action: 'expectState' }>['state'];
    const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
    return steps([{ action: 'expectState', description: `Expect ${describeTarget(acted.target)} to be ${state}`, target: acted.target, state, criterion: key }], [], [{ key, description: text }]);
  }
  // "check that it shows 2", "it should now read 'Ada'": the value of the field the task just typed into.
  const itValue = matchOutsideQuotes(text, /^(?:(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+)?(?:it|its value|the value)\s+(?:now\s+|still\s+)?(?:shows|reads|holds|contains|says|is|should\s+(?:now\s+|still\s+)?(?:show|read|hold|contain|say|be))\s+(?:now\s+)?("[^"]*"|'[^']*'|[+-]?[\d.,]+|\S+)$/i);
  if (itValue !== undefined && acted !== undefined && (acted.action === 'fill' || acted.action === 'clear')) {
    const value = unquote(itValue[1]!) ?? itValue[1]!;
    const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
    return steps([{ action: 'expectValue', description: `Expect ${describeTarget(acted.target)} to hold ${JSON.stringify(value)}`, target: acted.target, text: value, criterion: key }], [], [{ key, description: text }]);
  }
  // "type 'x' over it": the field being edited.
  const over = matchOutsideQuotes(text, /^(?:type|enter|write)\s+("[^"]*"|'[^']*')\s+(?:over|into|in)\s+(?:it|the field|the text)$/i);
  if (over !== undefined) return fillFocused(unquote(over[1]!)!, 'the field being edited');

  // "an error message appears saying 'X'", "a banner should show up reading 'X'": the page shows X.
  const saying = matchOutsideQuotes(text, /^(?:(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+)?(?:an?|the)\s+(?:red\s+|green\s+|error\s+|success\s+|warning\s+|info\s+)*(?:error|message|notice|banner|alert|toast|warning|notification|flash)(?:\s+message)?\s+(?:appears|shows up|is shown|is displayed|pops up|comes up|should appear|should show up|should be shown)\s+(?:saying|that says|reading|with(?: the text)?|:)\s+("[^"]+"|'[^']+')$/i);
  if (saying !== undefined) {
    const shown = unquote(saying[1]!)!;
    const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
    return steps([{ action: 'expectText', description: `Expect the page to show ${JSON.stringify(shown)}`, text: shown, criterion: key }], [], [{ key, description: text }]);
  }
  // "click into the text box": the field, the only one or the one with the focus.
  if (/^(?:click|tap)\s+(?:in|into|inside|on)\s+(?:the\s+)?(?:text ?box|text field|field|input(?: field| box)?|box)$/i.test(text)) {
    return steps([{ action: 'click', description: 'Click into the text field', target: FOCUSED_FIELD }]);
  }
  // "confirm the heading 'Dropdown List'", "check its heading is 'Hovers'", "verify the page title is 'Swag Labs'".
  // Unquoted, "check the heading Pricing": the words after the noun, when they read as a name (targets.ts: apposedName).
  const heading =
    matchOutsideQuotes(text, /^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+(?:the|its|the page's|the page)\s+(main\s+heading|heading|page title|title)\s+("[^"]+"|'[^']+')$/i) ??
    unquotedHeading(text);
  if (heading !== undefined) {
    const shown = unquote(heading[2]!) ?? heading[2]!;
    const key = slugKey(text.replace(/^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+/i, ''));
    const step: PlanStep = /title/i.test(heading[1]!)
      ? { action: 'expectTitle', description: `Expect the title to contain ${JSON.stringify(shown)}`, text: shown, criterion: key }
      : { action: 'expectText', description: `Expect a heading to show ${JSON.stringify(shown)}`, text: shown, role: 'heading', criterion: key };
    return steps([step], [], [{ key, description: text }]);
  }
  // "delete all of its text", "erase the text": the field being edited, emptied.
  if (/^(?:delete|remove|erase|clear)\s+(?:all\s+(?:of\s+)?)?(?:its|the|the todo's|the item's)\s+text$/i.test(text)) {
    return steps([{ action: 'clear', description: 'Clear the field being edited', target: FOCUSED_FIELD }]);
  }
  // "start editing the second one", "edit 'feed the cat' by double-clicking it": list apps edit an item on a double-click.
  const editing = matchOutsideQuotes(text, /^(?:start\s+editing|edit|begin editing)\s+(.+?)(?:\s+by\s+double[- ]?clicking(?:\s+(?:on\s+)?it)?)?$/i);
  if (editing !== undefined && itemRefs(editing[1]!, context)?.length === 1) return act('dblclick', 'Double-click', editing[1]!, context, 'text');

  const dbl = matchOutsideQuotes(text, /^double[- ]?click(?:\s+on)?\s+(.+)$/i);
  if (dbl !== undefined) return act('dblclick', 'Double-click', dbl[1]!, context, 'text');
  // "right-click inside the dashed box", "open the context menu of the Report row".
  const right = matchOutsideQuotes(text, /^(?:right[- ]?click|context[- ]?click|secondary[- ]?click)(?:\s+(?:on|in|inside|into|within|somewhere in))?\s+(.+)$|^open\s+the\s+context\s+menu\s+(?:of|on|for)\s+(.+)$/i);
  if (right !== undefined) return act('rightClick', 'Right-click', (right[1] ?? right[2])!, context, 'text');
  const hover = matchOutsideQuotes(text, /^(?:hover|mouse over|move the mouse over|move the (?:mouse|pointer|cursor) (?:to|over|onto)|point at)\s+(?:over\s+|on\s+)?(.+)$/i);
  if (hover !== undefined) return act('hover', 'Hover over', hover[1]!, context, 'text');
  const scroll = matchOutsideQuotes(text, /^scroll\s+(?:down\s+|up\s+)?(?:to|until you see|until|towards)\s+(.+)$/i);
  if (scroll !== undefined) {
    if (/^(?:the\s+)?(?:bottom|end)(?:\s+of the page)?$/i.test(scroll[1]!)) return steps([{ action: 'press', description: 'Scroll to the bottom of the page (End)', key: 'End' }]);
    if (/^(?:the\s+)?top(?:\s+of the page)?$/i.test(scroll[1]!)) return steps([{ action: 'press', description: 'Scroll to the top of the page (Home)', key: 'Home' }]);
    return act('scrollTo', 'Scroll to', scroll[1]!, context, 'text');
  }
  // "clear the Search field" is the form reader's (form-steps.ts); here only the field being worked in.
  if (/^(?:clear|empty|erase)\s+(?:it|the field|the input|the text(?: in it)?|its text)$/i.test(text)) {
    return steps([{ action: 'clear', description: 'Clear the field with the focus', target: FOCUSED_FIELD }]);
  }
  const drag = matchOutsideQuotes(text, /^drag(?:\s+and\s+drop)?\s+(.+?)\s+(?:to|onto|into|over|on to|on)\s+(.+)$/i);
  if (drag !== undefined) {
    const from = targetOf(drag[1]!, context, 'text');
    // "drag the slider to 50%" sets a value, which no drag onto an element does.
    const to = /^[\d.,]+\s*%?$/.test(drag[2]!.trim()) ? undefined : targetOf(drag[2]!, context, 'text');
    if (from !== undefined && to !== undefined) return steps([{ action: 'dragTo', description: `Drag ${describeTarget(from)} onto ${describeTarget(to)}`, target: from, to }]);
  }
  // A file has an extension ("report.pdf"); "choose 'Express' as the shipping method" is a selection.
  const upload = matchOutsideQuotes(text, /^(?:upload|attach|choose|select)\s+(?:a\s+|the\s+)?(?:file\s+)?(?:called\s+|named\s+)?("[^"]+"|'[^']+'|[\w.()-]+\.\w{1,5})(?:\s+(?:to|in|into|with|using|via|as|for)\s+(.+))?$/i);
  const fileName = upload === undefined ? undefined : unquote(upload[1]!) ?? upload[1]!;
  if (upload !== undefined && fileName !== undefined && /\.\w{1,5}$/.test(fileName)) {
    const target: Target = upload[2] === undefined ? { by: 'description', name: 'file upload', exact: false } : readTarget(upload[2], 'field') ?? { by: 'description', name: upload[2], exact: false };
    if (/^\w[\w .()-]{0,99}$/.test(fileName)) return steps([{ action: 'upload', description: `Upload ${JSON.stringify(fileName)} to ${describeTarget(target)}`, target, fileName }]);
  }
  // "change it to 'x'", "edit it to say 'x'", "replace the text with 'x'", "rename it 'x'": the field being edited.
  const change = matchOutsideQuotes(text, /^(?:change|edit|update|rename|set)\s+(?:it|that|the text|the title|the name|its text|its title)\s+(?:to(?:\s+say)?|as|into)?\s*(.+)$|^replace\s+(?:it|that|the text|its text)\s+with\s+(.+)$/i);
  if (change !== undefined) {
    const value = change[1] ?? change[2]!;
    return fillFocused(unquote(value.trim()) ?? value.trim(), 'the field being edited');
  }
  // "type 'milk'" with no field named, and nothing telling what kind of value it is.
  const typed = matchOutsideQuotes(text, /^(?:type|enter|write|input)\s+("[^"]*"|'[^']*')$/i);
  if (typed !== undefined) return fillFocused(unquote(typed[1]!)!, 'the field with the focus');
  return undefined;
}

function fillFocused(value: string, where: string): Reading {
  return steps(
    [{ action: 'fill', description: `Type ${JSON.stringify(value)} into ${where}`, target: FOCUSED_FIELD, value: { kind: 'literal', text: value } }],
    [`Types into ${where}: the one with the focus, or the only text field on the page.`],
  );
}

function act(action: 'dblclick' | 'rightClick' | 'hover' | 'scrollTo', verb: string, phrase: string, context: ReadingContext, kind: TargetKind): Reading | undefined {
  const target = targetOf(phrase, context, kind);
  if (target === undefined) return undefined;
  return steps([{ action, description: `${verb} ${describeTarget(target)}`, target } as PlanStep]);
}

/** A list item a phrase refers to (by its text, exactly), else the element it names. */
function targetOf(spoken: string, context: ReadingContext, kind: TargetKind): Target | undefined {
  // "the second one to edit it", "'feed the cat' to start editing it": what, then why.
  const phrase = spoken.replace(/\s+(?:to|in order to|so that|so as to)\s+(?:start\s+)?\w+(?:\s+.*)?$/i, '');
  const refs = itemRefs(phrase, context);
  if (refs !== undefined && refs.length === 1) {
    const ref = refs[0]!;
    return 'text' in ref ? { by: 'text', name: ref.text, exact: true } : { by: 'role', role: 'listitem', name: '', exact: false, nth: ref.nth };
  }
  return readTarget(phrase, kind);
}

/** "check the heading Pricing", "verify the main heading Order history": as the quoted form's match, [_, noun, name]. */
function unquotedHeading(text: string): [string, string, string] | undefined {
  const match = /^(?:check|verify|confirm|make sure|ensure|expect)(?:\s+that)?\s+(?:the|its|the page's|the page)\s+(main\s+heading|heading)\s+(.+)$/i.exec(text);
  if (match === null) return undefined;
  const apposed = apposedName(`heading ${match[2]!}`);
  return apposed === undefined ? undefined : [match[0], match[1]!, apposed.name];
}
