import { describe, expect, it } from 'vitest';
import { chooseLatest } from '../../src/core/latest.js';

const v = (id: string, timestamp: number, head: string) => ({ id, timestamp, head });

describe('chooseLatest: causality first, dates between unrelated work', () => {
  it('a version whose head continues the other wins over a later date', () => {
    expect(chooseLatest([v('fast', 5000, 'X'), v('real', 1000, 'Y')], new Set(['Y']))).toEqual({ chosen: 'real', diverged: [] });
  });
  it('unrelated heads: the later date, the other reported as diverged', () => {
    expect(chooseLatest([v('a', 1000, 'X'), v('b', 2000, 'Y')], new Set(['X', 'Y']))).toEqual({ chosen: 'b', diverged: ['a'] });
  });
  it('the same head on both: the date decides, and they diverged', () => {
    expect(chooseLatest([v('a', 3000, 'X'), v('b', 2000, 'X')], new Set(['X']))).toEqual({ chosen: 'a', diverged: ['b'] });
  });
  it('heads that cannot be compared (not in this clone): dates', () => {
    expect(chooseLatest([v('a', 1000, 'X'), v('b', 2000, 'Y')], null)).toEqual({ chosen: 'b', diverged: ['a'] });
  });
  it('equal dates keep the walk order', () => {
    expect(chooseLatest([v('first', 1000, 'X'), v('second', 1000, 'Y')], new Set(['X', 'Y'])).chosen).toBe('first');
  });
});
