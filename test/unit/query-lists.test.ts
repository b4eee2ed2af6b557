import { describe, expect, it } from 'vitest';
import { queryLists } from '#lib/http/query-lists.ts';

// Routes with `queryValues: 'lists'` read repeated query keys from the raw query string.

describe('queryLists', () => {
  it('maps a key sent once to its value and a repeated key to every value, in order', () => {
    expect(queryLists('tags%5B%5D=a&criticality=all&tags%5B%5D=b%2Cc&tags[]=d')).toEqual({ 'tags[]': ['a', 'b,c', 'd'], criticality: 'all' });
  });

  it('takes an empty or missing query, keys without values, and malformed escapes', () => {
    expect(queryLists(undefined)).toEqual({});
    expect(queryLists('')).toEqual({});
    expect(queryLists('a&b=&c=%zz&d=%E0%A4%A')).toEqual({ a: '', b: '', c: '%zz', d: '\ufffd%A' });
  });

  it('keeps `__proto__` a plain key', () => {
    const lists = queryLists('__proto__=x&__proto__=y');
    expect(Object.getPrototypeOf(lists)).toBe(Object.prototype);
    expect(Object.keys(lists)).toEqual(['__proto__']);
    expect(lists['__proto__']).toEqual(['x', 'y']);
  });
});
