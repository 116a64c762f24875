import { describe, expect, it } from 'vitest';
import { unclosedQuote } from '../../src/core/parse.js';

describe('unclosedQuote (the line of an unclosed quote, not where js-yaml gave up)', () => {
  it.each([
    ['status: active\nsession_id: s\nsummary: "abc\nguards: []\n', 3],
    ["summary: 'abc\nguards:\n  - x\n", 1],
    ['guards:\n  - "one\n  - two\n', 2],
    ['summary: "abc\nstatus: "active"\n', 1],
  ])('%j -> line %i', (text, line) => {
    expect(unclosedQuote(text)?.line).toBe(line);
  });
  it.each([
    'summary: "multi\n  line"\nstatus: [\n',
    "summary: 'it''s fine'\nnext: [\n",
    'summary: |\n  "a quote in a block\n  more\nstatus: [\n',
    'summary: x # "not a quote\n',
  ])('%j -> none', (text) => {
    expect(unclosedQuote(text)).toBeNull();
  });
});
