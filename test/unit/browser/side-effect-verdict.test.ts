/**
 * The run-time guard's decision on a control (side-effect-guard.ts: guardVerdict), pure: what the live page says the
 * control is decides whether its words alone stop it. The browser half (reading the control, the write fence) is in
 * test/integration/browser/side-effect-places.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import { guardVerdict, type NamedEffect } from '../../../src/browser/side-effect-guard.js';

const byName = (kind: string, name: string): NamedEffect => ({ kind, by: `its name "${name}"` });
const plain = { writesForm: false, socketOpen: false };

describe('guardVerdict', () => {
  it('lets a control that names nothing act, and one that names only allowed kinds act with consent', () => {
    expect(guardVerdict([], [], plain)).toEqual({ kind: 'act', consented: false });
    expect(guardVerdict([byName('message', 'Send')], ['message'], { ...plain, writesForm: true })).toEqual({ kind: 'act', consented: true });
  });

  it('stops a "Remove" that submits a form that writes, and fences one outside such a form (a button or a link)', () => {
    const remove = byName('delete', 'Remove');
    expect(guardVerdict([remove], [], { ...plain, writesForm: true })).toEqual({ kind: 'blocked', named: remove });
    expect(guardVerdict([remove], [], plain)).toEqual({ kind: 'fenced', named: remove });
    const contact = byName('form_submission', 'Contact Us');
    expect(guardVerdict([contact], [], plain)).toEqual({ kind: 'fenced', named: contact });
  });

  it('decides by the words alone on a page with a WebSocket open, and for money anywhere', () => {
    const remove = byName('delete', 'Remove');
    expect(guardVerdict([remove], [], { ...plain, socketOpen: true })).toEqual({ kind: 'blocked', named: remove });
    for (const money of [byName('purchase', 'Finish'), byName('transfer', 'Send $20')]) expect(guardVerdict([money], [], plain)).toEqual({ kind: 'blocked', named: money });
  });

  it('names the first kind no answer allowed, whatever else was allowed', () => {
    const named = [byName('delete', 'Delete and notify'), byName('message', 'Delete and notify')];
    expect(guardVerdict(named, ['delete'], plain)).toEqual({ kind: 'fenced', named: named[1] });
  });
});
