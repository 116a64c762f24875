import { describe, expect, it } from 'vitest';
import { bodyOf, dueFrom, isExcludedSubject, isSubstantive, subjectLine } from '../../src/core/substantive.js';

describe('excluded subjects (docs/hooks.md)', () => {
  it.each([
    ['meta: x', true],
    ['docs: x', true],
    ['style: x', true],
    ['chore: x', true],
    ['docs(readme): x', true],
    ['chore!: x', true],
    ['chore(deps)!: x', true],
    ['CHORE(Deps): x', true],
    ['chore(): empty scope', true],
    ['fix typo', true],
    ['Fix typos in the README', true],
    ['docs x', false],
    ['docsy: x', false],
    ['chore (deps): x', false],
    ['chore(a(b)): nested parens', false],
    ['chore!!: x', false],
    ['fix: typo', false],
    ['a fix typo', false],
    ['feat: docs: x', false],
  ])('%j excluded: %s', (subject, excluded) => {
    expect(isExcludedSubject(subject)).toBe(excluded);
  });
});

describe('subject and body', () => {
  it.each([
    ['feat: one line', 'feat: one line', ''],
    ['feat: x\n\nbody\n', 'feat: x', 'body'],
    ['feat: wrapped\nsubject\n\nbody', 'feat: wrapped subject', 'body'],
    ['feat: x\r\n\r\nbody\r\n', 'feat: x', 'body'],
    ['feat: x\n\npara 1\n\npara 2  \n\n \n', 'feat: x', 'para 1\n\npara 2'],
    ['feat: x\n\nbody\n\nSigned-off-by: A <a@x>\nCo-authored-by: B <b@x>\n', 'feat: x', 'body'],
    ['feat: x\n\nbody\n\nRefs: #1\n  continued\n', 'feat: x', 'body'],
    ['feat: x\n\nSigned-off-by: A <a@x>\n', 'feat: x', ''],
    ['feat: x\n\nbody\n\nnot: all\nlines are trailers\n', 'feat: x', 'body\n\nnot: all\nlines are trailers'],
    ['feat: x\n\nbody\n\nhttps://example.com/a\n', 'feat: x', 'body\n\nhttps://example.com/a'],
  ])('%j', (message, subject, body) => {
    expect(subjectLine(message)).toBe(subject);
    expect(bodyOf(message)).toBe(body);
  });
});

describe('the substantive-commit rule', () => {
  const body = (n: number, ch = 'a') => ch.repeat(n);
  const cases: [string, string, number, boolean, ReturnType<typeof isSubstantive>][] = [
    ['excluded beats everything', `docs: x\n\n${body(500)}`, 10, true, { substantive: false, rule: 'excluded' }],
    ['first commit since the version, however small', 'fix: x', 0, true, { substantive: true, rule: 'first-commit' }],
    ['body of exactly 200 code points', `feat: x\n\n${body(200)}`, 0, false, { substantive: false, rule: 'small' }],
    ['body of 201 code points', `feat: x\n\n${body(201)}`, 0, false, { substantive: true, rule: 'body-length' }],
    ['200 astral characters count 200, not 400', `feat: x\n\n${body(200, '😀')}`, 0, false, { substantive: false, rule: 'small' }],
    ['201 CJK characters', `feat: x\n\n${body(201, '语')}`, 0, false, { substantive: true, rule: 'body-length' }],
    ['trailers do not count', `feat: x\n\n${body(200)}\n\nSigned-off-by: A <a@x>`, 0, false, { substantive: false, rule: 'small' }],
    ['trailing whitespace does not count', `feat: x\n\n${body(200)}      \n\n\n`, 0, false, { substantive: false, rule: 'small' }],
    ['3 files', 'feat: x', 3, false, { substantive: false, rule: 'small' }],
    ['4 files', 'feat: x', 4, false, { substantive: true, rule: 'files-changed' }],
  ];
  it.each(cases)('%s', (_name, message, filesChanged, firstSinceVersion, want) => {
    expect(isSubstantive({ message, filesChanged }, { firstSinceVersion })).toEqual(want);
  });
});

describe('due', () => {
  it('names the newest commit with a non-excluded subject, or null', () => {
    expect(dueFrom([])).toBeNull();
    expect(
      dueFrom([
        { id: 'c2', subject: 'docs: x' },
        { id: 'c1', subject: 'fix typo' },
      ]),
    ).toBeNull();
    expect(
      dueFrom([
        { id: 'c3', subject: 'chore: x' },
        { id: 'c2', subject: 'feat: y' },
        { id: 'c1', subject: 'fix: z' },
      ]),
    ).toEqual({ rule: 'commit-since-handoff', commit: 'c2' });
  });
});
