import { describe, expect, it } from 'vitest';
import { continuationPaths, entriesOf, headingTime, parseFrontMatter, planSweep, type TopicFile } from '../../src/core/sweep.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const MIN = 60_000;

function topic(path: string, fm: Record<string, string>, entries: string[], extra: Partial<TopicFile> = {}): TopicFile {
  const head = Object.entries(fm)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  const body = entries.map((h) => `## ${h}\n\ntext\n`).join('\n');
  return { path, text: `---\n${head}\n---\n# Title\n\n${body}`, committedAt: null, mtime: NOW - 60 * MIN, ...extra };
}

const iso = (ms: number) => new Date(ms).toISOString();
const at = (minutesAgo: number) => iso(NOW - minutesAgo * MIN).replace('.000Z', 'Z');

describe('the consolidation rule (docs/sweep.md)', () => {
  const cases: [string, TopicFile, Set<string>, 'consolidate' | 'skip', RegExp][] = [
    ['High, one fresh entry', topic('s/high.md', { status: 'active', fidelity: 'High' }, [at(1)]), new Set(), 'consolidate', /fidelity High/],
    [
      'explicitly closed, one fresh entry',
      topic('s/closed.md', { status: 'active', fidelity: 'Light', closing: 'true' }, [at(1)]),
      new Set(),
      'consolidate',
      /closed by the user/,
    ],
    [
      'the current continuation, one fresh entry',
      topic('s/cur.md', { status: 'active', fidelity: 'Standard' }, [at(1)]),
      new Set(['s/cur.md']),
      'consolidate',
      /current continuation/,
    ],
    ['Standard, one old entry', topic('s/one.md', { status: 'active', fidelity: 'Standard' }, [at(600)]), new Set(), 'skip', /fewer than 2 entries/],
    [
      'Light, two entries, newest 9 minutes old',
      topic('s/fresh.md', { status: 'active', fidelity: 'Light' }, [at(120), at(9)]),
      new Set(),
      'skip',
      /under 10 minutes/,
    ],
    [
      'Standard, two entries, newest exactly 10 minutes old',
      topic('s/ten.md', { status: 'active', fidelity: 'Standard' }, [at(120), at(10)]),
      new Set(),
      'consolidate',
      /2 entries, newest 10 min old/,
    ],
    [
      'Standard, three entries, newest an hour old',
      topic('s/mature.md', { status: 'active' }, [at(300), at(200), at(60)]),
      new Set(),
      'consolidate',
      /3 entries/,
    ],
    ['High without entries', topic('s/empty.md', { status: 'active', fidelity: 'High' }, []), new Set(), 'skip', /no entries/],
    ['closing: false is not a close', topic('s/open.md', { status: 'active', closing: 'false' }, [at(1)]), new Set(), 'skip', /fewer than 2/],
  ];
  it.each(cases)('%s', (_name, file, cont, action, reason) => {
    const [plan] = planSweep([file], cont, NOW);
    expect(plan.action).toBe(action);
    expect(plan.reason).toMatch(reason);
  });

  it('considers only status: active files; the plan is sorted by path', () => {
    const files = [
      topic('s/b.md', { status: 'active', fidelity: 'High' }, [at(5)]),
      topic('s/c.md', { status: 'consolidated', fidelity: 'High' }, [at(5)]),
      topic('s/d.md', { status: 'closed', fidelity: 'High' }, [at(5)]),
      { path: 's/e.md', text: '# no front matter\n## 2026-01-01T00:00Z\n', committedAt: null, mtime: NOW },
      topic('s/a.md', { status: '"active"', topic: "'quoted topic'", fidelity: 'high' }, [at(5)]),
    ];
    const plan = planSweep(files, new Set(), NOW);
    expect(plan.map((p) => p.path)).toEqual(['s/a.md', 's/b.md']);
    expect(plan[0]).toMatchObject({ topic: 'quoted topic', fidelity: 'High', entries: 1, newest: iso(NOW - 5 * MIN) });
    expect(plan[1].topic).toBe('b');
  });
});

describe('entry dating', () => {
  it.each([
    ['2026-03-01T11:50', '2026-03-01T11:50:00.000Z'],
    ['2026-03-01T11:50:30Z decided the API', '2026-03-01T11:50:30.000Z'],
    ['2026-03-01 11:50 parser', '2026-03-01T11:50:00.000Z'],
    ['2026-03-01T13:50+02:00 — in Berlin', '2026-03-01T11:50:00.000Z'],
    ['2026-03-01T06:50-0500', '2026-03-01T11:50:00.000Z'],
    ['2026-03-01T11:50:00.250Z', '2026-03-01T11:50:00.250Z'],
    ['2026-03-01 a date alone', '2026-03-01T00:00:00.000Z'],
  ])('%j starts with a time: %s', (heading, want) => {
    expect(iso(headingTime(heading)!)).toBe(want);
  });

  it.each([['Parser decisions'], ['v2026-03-01'], ['20260301T1150'], ['2026-13-45T99:99']])('%j is undated', (heading) => {
    expect(headingTime(heading)).toBeNull();
  });

  it('counts `## ` headings outside code fences only', () => {
    const body = [
      '## 2026-03-01T10:00Z one',
      'text',
      '```md',
      '## not an entry',
      '```',
      '~~~',
      '## nor this',
      '~~~',
      '### deeper: no',
      '#### no',
      '## two ##',
      '##three: no space',
      ' ## indented one space',
      '    ## four spaces: code',
    ].join('\n');
    const e = entriesOf(body);
    expect(e.map((x) => x.heading)).toEqual(['2026-03-01T10:00Z one', 'two', 'indented one space']);
    expect(e[1].time).toBeNull();
  });

  it('undated entries take the last commit time, else the modification time', () => {
    const fm = { status: 'active', fidelity: 'Standard' };
    const committed = topic('s/c.md', fm, ['one', 'two'], { committedAt: NOW - 30 * MIN, mtime: NOW - 1 * MIN });
    const uncommitted = topic('s/u.md', fm, ['one', 'two'], { committedAt: null, mtime: NOW - 1 * MIN });
    const [c, u] = planSweep([committed, uncommitted], new Set(), NOW);
    expect(c).toMatchObject({ action: 'consolidate', newest: iso(NOW - 30 * MIN) });
    expect(u).toMatchObject({ action: 'skip', newest: iso(NOW - 1 * MIN) });
    // A dated entry newer than the fallback wins.
    const mixed = topic('s/m.md', fm, ['undated', at(2)], { committedAt: NOW - 300 * MIN });
    expect(planSweep([mixed], new Set(), NOW)[0]).toMatchObject({ action: 'skip', newest: iso(NOW - 2 * MIN) });
  });
});

describe('front matter and the current continuation', () => {
  it('reads top-level scalars and ignores the rest', () => {
    const fm = parseFrontMatter(
      '---\ntopic: "a: b" # not a comment inside quotes\nstatus: active # comment\nnested:\n  x: 1\nclosing: yes\nempty:\n---\nbody\n',
    );
    expect(fm!.data).toMatchObject({ topic: 'a: b', status: 'active', closing: true, empty: null });
    expect(fm!.body).toBe('body\n');
    expect(parseFrontMatter('no front matter\n')).toBeNull();
    expect(parseFrontMatter('---\nunterminated: yes\n')).toBeNull();
    expect(parseFrontMatter('\uFEFF---\r\nstatus: active\r\n---\r\n')!.data.status).toBe('active');
  });

  it('finds the continuation in _ACTIVE.md by path, or in continuation_refs', () => {
    const c = ['cadence/streaming/a.md', 'cadence/streaming/b.md', 'cadence/streaming/ab.md', 'cadence/streaming/c.md'];
    expect([...continuationPaths('current: [a](streaming/a.md)\nnot: cadence/streaming/ab.md.bak\n', [], c)]).toEqual(['cadence/streaming/a.md']);
    expect([...continuationPaths(null, ['./cadence/streaming/b.md', 'docs/x.md'], c)]).toEqual(['cadence/streaming/b.md']);
    expect([...continuationPaths('see xcadence/streaming/c.md', ['streaming/c.md'], c)]).toEqual(['cadence/streaming/c.md']);
    expect(continuationPaths('nothing here', [], c).size).toBe(0);
  });
});
