import { describe, expect, it } from 'vitest';
import { ageInDays, renderBookmark, type BookmarkView, type Painter } from '../../src/core/bookmark.js';
import { notices } from '../../src/app/show-report.js';
import type { ShowResult } from '../../src/app/show.js';
import type { ReadVersion } from '../../src/git/handoff-store.js';
import type { Handoff } from '../../src/core/schema.js';

const V = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const T = 'f00dfeed0123456789abcdef0123456789abcdef';

const full: Handoff = {
  schema: 1,
  session_id: 'sess-42',
  status: 'active',
  summary: 'Parser done; the CLI wiring is half way.\nDecided: no yargs (start-up cost).',
  cursor: {
    last_discussed: 'how quoted fields are escaped',
    pending_questions: ['Follow RFC 4180 exactly?', 'Keep CRLF in output?'],
    next_step: 'write the e2e tests for quoting',
  },
  soft_context: { tone: 'terse', notes: ['the user dislikes long explanations', 'benchmarks matter'] },
  open_tracks: [
    { name: 'parser', readiness: 'ready', entry_point: 'src/parse.ts' },
    { name: 'cli', readiness: 'half', entry_point: 'src/cli.ts' },
  ],
  ask_user: ['publish to npm now?'],
  guards: ["don't force-push main", "don't touch the lockfile"],
  memory_updates: [],
  continuation_refs: ['docs/parser.md'],
  date: '2026-01-01T10:00:00Z',
  branch: 'main',
  head: T,
  recent_commits: ['f00dfee: feat: parser', '1234abc: test: parser cases', '5678def: chore: deps'],
};

const view = (handoff: Handoff, notes: string[] = []): BookmarkView => ({ version: V, target: T, date: '2026-01-01T10:00:00Z', handoff, notices: notes });
const linesOf = (s: string) => s.replace(/\n$/, '').split('\n');

describe('renderBookmark', () => {
  it('renders a full handoff in 15-30 lines', () => {
    const n = linesOf(renderBookmark(view(full))).length;
    expect(n).toBeGreaterThanOrEqual(15);
    expect(n).toBeLessThanOrEqual(30);
  });

  it('puts the cursor first, then soft context, guards, open tracks, ask-user, recent commits', () => {
    const out = linesOf(renderBookmark(view(full)));
    const at = (s: string) => out.findIndex((l) => l.startsWith(s));
    const order = ['Cursor', 'Soft context', 'Guards', 'Open tracks', 'Ask the user', 'Recent commits'].map(at);
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // the cursor section holds last discussed, pending questions, next step, in that order
    const cursor = out.slice(at('Cursor') + 1, at('Soft context'));
    expect(cursor).toEqual([
      '  last discussed: how quoted fields are escaped',
      '  pending 1: Follow RFC 4180 exactly?',
      '  pending 2: Keep CRLF in output?',
      '  next step: write the e2e tests for quoting',
    ]);
    // no other section comes before the cursor
    const firstSection = out.findIndex((l) => /^[A-Z][a-z]/.test(l) && !l.startsWith('Parser') && !l.startsWith('Decided'));
    expect(out[firstSection]).toBe('Cursor');
  });

  it('heads with the version, branch, target, date, status and session', () => {
    expect(linesOf(renderBookmark(view(full)))[0]).toBe('handoff a1b2c3d4e5f6 · on main · at f00dfee · 2026-01-01 10:00:00 UTC · active · session sess-42');
    expect(linesOf(renderBookmark(view({ ...full, branch: null })))[0]).toContain(' · detached · ');
  });

  it('shows at most 5 notice lines: beyond 5, four and one saying how many more and which command prints them (DESIGN.md)', () => {
    const notes = (n: number) => Array.from({ length: n }, (_, i) => `notice ${i + 1}`);
    const top = (n: number) => linesOf(renderBookmark(view(full, notes(n)))).slice(0, 6);
    expect(top(5).slice(0, 5)).toEqual(notes(5));
    expect(top(5)[5]).toMatch(/^handoff /);
    expect(top(7)).toEqual(['notice 1', 'notice 2', 'notice 3', 'notice 4', '… 3 more notices: git handoff show --notices', top(7)[5]]);
    expect(top(7)[5]).toMatch(/^handoff /);
  });

  it('hides the skipped-version warnings before the lines about the shown version (stale, due)', () => {
    const skipped = Array.from({ length: 6 }, (_, i) => `warning: skipped version ${i}: not a valid handoff`);
    const lines = linesOf(renderBookmark(view(full, [...skipped, 'stale line', 'a handoff is due']))).slice(0, 5);
    expect(lines).toEqual([skipped[0], skipped[1], 'stale line', 'a handoff is due', '… 4 more notices: git handoff show --notices']);
  });

  it('never exceeds 30 lines beside its notices, saying how to see the rest', () => {
    const many = (p: string) => Array.from({ length: 12 }, (_, i) => `${p} ${i}`);
    const big: Handoff = {
      ...full,
      summary: 'a\nb\nc\nd\ne',
      soft_context: { tone: 't', notes: many('note') },
      guards: many('guard'),
      ask_user: many('ask'),
      continuation_refs: many('ref'),
      open_tracks: many('t').map((name) => ({ name, readiness: '', entry_point: '' })),
    };
    const out = linesOf(renderBookmark(view(big, ['warning: this handoff is stale: written 9 days ago'])));
    expect(out).toHaveLength(31);
    expect(out[0]).toMatch(/stale/);
    expect(out[30]).toMatch(/more lines: git handoff show --json$/);
    // lists show 5 items then a count
    expect(out).toContain('  … 7 more');
  });

  it('omits empty sections and flattens multi-line and long values', () => {
    const out = renderBookmark(
      view({ status: 'paused', cursor: { next_step: 'one\n  two', pending_questions: [] }, guards: [], soft_context: { tone: '', notes: [] } }),
    );
    expect(out).not.toMatch(/Guards|Soft context|Open tracks|Recent commits/);
    expect(out).toContain('  next step: one two\n');
    const long = renderBookmark(view({ cursor: { last_discussed: 'x'.repeat(400) } }));
    const line = linesOf(long).find((l) => l.includes('last discussed'))!;
    expect(line.length).toBeLessThanOrEqual(180);
    expect(line.endsWith('…')).toBe(true);
  });

  it('keeps the summary whole, all its lines, however long a line is', () => {
    const summary = `${'The parser now reads quoted fields and escaped quotes in every position. '.repeat(6).trim()}\nDecided: no yargs.\nNext: 14 of 17 tests pass.`;
    const out = renderBookmark(view({ ...full, summary }));
    expect(out).toContain(`${summary}\n`);
    expect(out).not.toContain('…');
  });

  it('cuts a summary longer than its budget after a sentence, saying how much is left and where', () => {
    const sentence = (i: number) => `Sentence ${i} says where the work stands in some detail.`;
    const summary = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const out = linesOf(renderBookmark(view({ ...full, summary })));
    const shown = out[1];
    expect(shown.endsWith('detail.')).toBe(true);
    expect(summary.startsWith(shown)).toBe(true);
    expect(out[2]).toBe(`(the summary goes on for ${summary.length - shown.length} more characters: git handoff show --json)`);
    // a single sentence with no end in the budget is cut at a word
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const one = linesOf(renderBookmark(view({ ...full, summary: words })))[1];
    expect(one.endsWith('…')).toBe(true);
    expect(`${words} `.startsWith(`${one.slice(0, -1)} `)).toBe(true);
  });

  it('stays under 1,400 bytes, notices included, whatever the content', () => {
    const long = (p: string) => Array.from({ length: 12 }, (_, i) => `${p} ${i} ${'детали '.repeat(30)}`);
    const big: Handoff = {
      ...full,
      summary: 'Сводка: '.repeat(200),
      cursor: { last_discussed: 'x '.repeat(300), next_step: 'y '.repeat(300), pending_questions: long('q').slice(0, 3) },
      guards: long('guard'),
      ask_user: long('ask'),
    };
    const out = renderBookmark(view(big, ['warning: this handoff is stale: written 9 days ago']));
    expect(new TextEncoder().encode(out).length).toBeLessThanOrEqual(1400);
    expect(out).toMatch(/more lines: git handoff show --json\n$/);
  });

  it('shows mid-task work inside the cursor', () => {
    const out = renderBookmark(view({ cursor: { next_step: 'n' }, mid_task: { slug: 'quote-escaping', where_stopped: 'half of the cases' } }));
    expect(out).toContain('  left mid-task: quote-escaping (half of the cases)\n');
  });

  it('paints notices as warnings and headings as headings', () => {
    const tag: Painter = { heading: (s) => `<h>${s}</h>`, dim: (s) => `<d>${s}</d>`, warn: (s) => `<w>${s}</w>` };
    const out = linesOf(renderBookmark(view(full, ['careful']), tag));
    expect(out[0]).toBe('<w>careful</w>');
    expect(out).toContain('<h>Cursor</h>');
  });
});

describe('ageInDays and the stale notice', () => {
  const day = 86_400_000;
  it.each([
    [0, 0],
    [day - 1, 0],
    [day, 1],
    [8.5 * day, 8],
    [-3 * day, 0],
  ])('%d ms old is %d days', (ms, days) => {
    const now = Date.parse('2026-02-01T00:00:00Z');
    expect(ageInDays(new Date(now - ms).toISOString(), now)).toBe(days);
  });

  it('reads a bad date as 0 days', () => {
    expect(ageInDays('not a date', Date.now())).toBe(0);
  });

  const result = (over: Partial<ShowResult>): ShowResult => ({
    version: { id: V, target: T, branch: 'main', handoff: full, valid: true, problems: [] } as unknown as ReadVersion,
    skipped: [],
    fallback: false,
    currentBranch: 'main',
    date: '2026-01-01T10:00:00Z',
    stale: false,
    ageDays: 2,
    staleDays: 7,
    due: null,
    remoteAhead: null,
    ...over,
  });

  it('says "stale" with the age in days when the version is stale', () => {
    const lines = notices(result({ stale: true, ageDays: 12 }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/stale/);
    expect(lines[0]).toMatch(/\b12 days\b/);
    expect(notices(result({}))).toEqual([]);
  });

  it('says when it falls back to another branch, and when a version was skipped', () => {
    const skipped = { id: 'b'.repeat(40), problems: ['summary: must be a string, not a list'] } as unknown as ReadVersion;
    const lines = notices(result({ fallback: true, currentBranch: 'topic', skipped: [skipped] }));
    expect(lines[0]).toMatch(/skipped version bbbbbbbbbbbb: not a valid handoff \(summary: must be a string/);
    expect(lines[1]).toBe('no handoff on branch topic yet; showing the newest one (from main)');
  });
});
