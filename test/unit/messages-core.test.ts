import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/core/nearest-name.js';
import { remoteDisagreements } from '../../src/core/remote-item.js';
import { coveredTopics, planSweep } from '../../src/core/sweep.js';

describe('nearestName', () => {
  const commands = ['write', 'show', 'log', 'diff', 'init', 'uninstall', 'sync', 'status', 'seed', 'sweep'];
  it.each([
    ['shwo', 'show'],
    ['wirte', 'write'],
    ['stauts', 'status'],
    ['uninst', 'uninstall'],
    ['Show', 'show'],
    ['xyzzy', null],
    ['s', null],
    ['sed', 'seed'],
  ])('%s -> %s', (typed, want) => expect(nearestName(typed, commands)).toBe(want));
  it('two equally near names: no guess', () => expect(nearestName('cat', ['bat', 'hat'])).toBeNull());
});

describe('remoteDisagreements', () => {
  const values = { backlog: 'Todo', 'in-progress': 'In Progress', 'ready-for-review': 'Review', done: 'Done' } as const;
  const board = { statusField: 'Status', handoffDocField: 'Handoff doc' };
  it('agrees when the board shows our state through statusValues and the document', () => {
    expect(
      remoteDisagreements(
        { state: 'in-progress', handoffDoc: 'docs/HANDOFF-1.md' },
        { issueState: 'OPEN', boardStatus: 'in progress', boardHandoffDoc: 'docs/HANDOFF-1.md', ...board },
        values,
      ),
    ).toEqual([]);
  });
  it('names each difference', () => {
    expect(
      remoteDisagreements(
        { state: 'done', handoffDoc: 'docs/HANDOFF-1.md' },
        { issueState: 'OPEN', boardStatus: null, boardHandoffDoc: 'docs/other.md', ...board },
        values,
      ),
    ).toEqual([
      'the issue is still open, our record says done',
      "the board's Status is not set, our record says done ('Done')",
      "the board's Handoff doc is 'docs/other.md', our record says docs/HANDOFF-1.md",
    ]);
  });
  it('without a project only the issue state counts', () => {
    const none = { statusField: null, handoffDocField: null, boardStatus: null, boardHandoffDoc: null };
    expect(remoteDisagreements({ state: 'in-progress', handoffDoc: null }, { issueState: 'CLOSED', ...none }, values)).toEqual([
      'the issue is closed, our record says in-progress',
    ]);
  });
});

describe('coveredTopics', () => {
  const topics = ['cadence/streaming/division.md', 'cadence/streaming/rounding.md'];
  it('a document named like the topic file, or naming its path, covers it as of the version date', () => {
    const covered = coveredTopics(topics, ['docs/division.md', 'docs/notes.md'], 1000, new Map([['docs/notes.md', 'see streaming/rounding.md']]));
    expect([...covered]).toEqual([
      ['cadence/streaming/division.md', { by: 'docs/division.md', at: 1000 }],
      ['cadence/streaming/rounding.md', { by: 'docs/notes.md', at: 1000 }],
    ]);
    expect(coveredTopics(topics, ['docs/other.md'], 1000).size).toBe(0);
  });
  it('the plan skips a covered topic until an entry newer than the coverage', () => {
    const text = (t: string) => `---\ntopic: d\nstatus: active\nfidelity: High\n---\n## ${t} one\n`;
    const file = (t: string) => ({ path: topics[0], text: text(t), committedAt: null, mtime: null });
    const at = Date.parse('2026-01-01T12:00:00Z');
    const covered = new Map([[topics[0], { by: 'docs/division.md', at }]]);
    expect(planSweep([file('2026-01-01T11:00Z')], new Set(), at + 3600_000, covered)[0]).toMatchObject({ action: 'skip' });
    expect(planSweep([file('2026-01-01T12:30Z')], new Set(), at + 3600_000, covered)[0]).toMatchObject({ action: 'consolidate', reason: 'fidelity High' });
  });
});
