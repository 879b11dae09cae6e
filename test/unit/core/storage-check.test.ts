import { describe, expect, it } from '@jest/globals';
import { storageMatch } from '../../../src/core/storage-check.js';

const todos = JSON.stringify([
  { id: 1, title: 'buy milk', completed: true },
  { id: 2, title: 'feed the cat', completed: false },
]);

describe('storageMatch: what a page keeps in local storage', () => {
  it('finds stored texts as whole string values of the JSON, not parts of them', () => {
    expect(storageMatch({ 'react-todos': todos }, { texts: ['buy milk', 'feed the cat'] }).held).toBe(true);
    expect(storageMatch({ 'react-todos': todos }, { texts: ['milk'] }).held).toBe(false);
    expect(storageMatch({ 'react-todos': JSON.stringify([{ title: '  buy milk ' }]) }, { texts: ['buy milk'] }).held).toBe(false);
  });

  it('counts the one stored list, and its entries with a property set', () => {
    expect(storageMatch({ 'react-todos': todos, theme: 'dark' }, { texts: [], count: 2 }).held).toBe(true);
    expect(storageMatch({ 'react-todos': todos }, { texts: [], count: 1, where: 'completed' }).held).toBe(true);
    expect(storageMatch({ 'react-todos': todos }, { texts: [], count: 2, where: 'completed' })).toMatchObject({ held: false, actual: ['1 entries with completed', expect.stringContaining('react-todos: [')] });
  });

  it('reads a value that is not JSON as text, and says what is stored when nothing is', () => {
    expect(storageMatch({ note: 'buy milk today' }, { texts: ['buy milk'] }).held).toBe(true);
    expect(storageMatch({}, { key: 'react-todos', texts: ['a'], count: 1 })).toEqual({ held: false, expected: 'local storage "react-todos" holds "a", 1 entries', actual: ['0 lists stored', 'react-todos: (nothing)'] });
  });
});
