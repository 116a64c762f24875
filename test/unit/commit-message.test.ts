import { describe, expect, it } from 'vitest';
import { bodyOf, parseTrailers, subjectLine } from '../../src/core/commit-message.js';

// git/objects.ts read trailers from any `Key: value` line of the last paragraph (the subject
// included, prose around them ignored); core/substantive.ts took the last paragraph as a
// trailer block only when every line was a trailer or a continuation. One rule now, the
// second (git's): the notes store and the substantive rule agree on where trailers are.
describe('the one commit-message reader', () => {
  const T = 'a'.repeat(40);
  it.each([
    [
      `handoff: x\n\nHandoff-Kind: version\nHandoff-Target: ${T}\nHandoff-Branch: main\n`,
      { 'Handoff-Kind': 'version', 'Handoff-Target': T, 'Handoff-Branch': 'main' },
    ],
    ['s\n\nbody\n\nRefs: #1\n  and #2\nKey: one\nKey: two\n', { Refs: '#1 and #2', Key: 'two' }],
    ['s\r\n\r\nA-B: c\r\n', { 'A-B': 'c' }],
    ['s\n\nbody\n\nA: b\n \t\n', { A: 'b' }],
    ['Handoff-Kind: version', {}], // a subject is never a trailer
    ['s\n\nprose\nHandoff-Kind: version\n', {}], // not a block: a line of prose in it
    ['s\n\nHandoff-Kind:\n', {}], // a trailer has a value
    ['s\n\nhttps://example.com/a\n', {}],
    ['s\n\n-Key: v\n', {}],
    ['', {}],
  ])('%j', (message, want) => {
    expect(parseTrailers(message)).toEqual(want);
  });

  it('takes the body without the block the trailers were read from', () => {
    const m = 's\n\nbody\n\nSigned-off-by: A <a@x>\n';
    expect(bodyOf(m)).toBe('body');
    expect(parseTrailers(m)).toEqual({ 'Signed-off-by': 'A <a@x>' });
    const prose = 's\n\nbody\n\nnot: all\nlines are trailers\n';
    expect(bodyOf(prose)).toBe('body\n\nnot: all\nlines are trailers');
    expect(parseTrailers(prose)).toEqual({});
  });

  it('reads the subject as git does: the first paragraph, lines joined, a white-space line ends it', () => {
    expect(subjectLine('feat: wrapped\nsubject\n\nbody')).toBe('feat: wrapped subject');
    expect(subjectLine('one\n \ntwo')).toBe('one');
    expect(subjectLine('crlf\r\n\r\nbody')).toBe('crlf');
    expect(subjectLine('')).toBe('');
  });
});

describe('the trailers of a commit we make', () => {
  it('are refused unless each value is one plain line; the subject is made one line', async () => {
    const { renderCommitMessage, branchForTrailer, parseTrailers } = await import('../../src/core/commit-message.js');
    expect(renderCommitMessage('handoff a on main', { 'Handoff-Kind': 'version', 'Handoff-Branch': 'main' })).toBe(
      'handoff a on main\n\nHandoff-Kind: version\nHandoff-Branch: main\n',
    );
    expect(() => renderCommitMessage('s', { 'Handoff-Branch': 'x\nHandoff-Kind: receipt' })).toThrow(/not one plain line/);
    expect(() => renderCommitMessage('s', { 'Bad Key': 'v' })).toThrow();
    const m = renderCommitMessage('on x\n\nHandoff-Kind: receipt', { 'Handoff-Kind': 'version' });
    expect(parseTrailers(m)).toEqual({ 'Handoff-Kind': 'version' });
    for (const bad of ['x\nHandoff-Kind: receipt', '-x', 'a..b', 'a b', 'a\u001b', '', 'x.lock', '/x'])
      expect(branchForTrailer(bad), JSON.stringify(bad)).toBeNull();
    for (const good of ['main', 'feature/div', 'fix-1.2', 'привет']) expect(branchForTrailer(good)).toBe(good);
  });
});
