import { describe, expect, it } from 'vitest';
import { diffHandoffs, renderChanges } from '../../src/core/version-diff.js';
import type { Handoff } from '../../src/core/schema.js';

const base: Handoff = {
  schema: 1,
  status: 'active',
  summary: 'parser done',
  cursor: { last_discussed: 'quoting', pending_questions: ['a?'], next_step: 'tests' },
  guards: ['no force push', 'no lockfile edits'],
  content_hashes: { 'cadence/_INDEX.md': 'a'.repeat(40) },
  custom: 1,
};

describe('diffHandoffs', () => {
  it('finds nothing between equal handoffs', () => {
    expect(diffHandoffs(base, structuredClone(base))).toEqual([]);
    expect(renderChanges([])).toBe('');
  });

  it.each([
    ['a scalar', { status: 'done' }, [{ field: 'status', change: 'changed', old: 'active', new: 'done' }]],
    ['a nested field', { cursor: { ...base.cursor, next_step: 'ship' } }, [{ field: 'cursor.next_step', change: 'changed', old: 'tests', new: 'ship' }]],
    ['an added field', { work_item: 'local:#1' }, [{ field: 'work_item', change: 'added', old: null, new: 'local:#1' }]],
    [
      'another session (a change of writer, never added or removed content)',
      { session_id: 's1' },
      [{ field: 'session_id', change: 'changed', old: null, new: 's1' }],
    ],
    ['a list', { guards: ['no force push'] }, [{ field: 'guards', change: 'changed', old: base.guards, new: ['no force push'] }]],
    ['an unknown field', { custom: 2 }, [{ field: 'custom', change: 'changed', old: 1, new: 2 }]],
    [
      'content_hashes, compared whole',
      { content_hashes: { 'cadence/_INDEX.md': 'b'.repeat(40) } },
      [{ field: 'content_hashes', change: 'changed', old: base.content_hashes, new: { 'cadence/_INDEX.md': 'b'.repeat(40) } }],
    ],
  ])('reports %s', (_n, patch, expected) => {
    expect(diffHandoffs(base, { ...base, ...patch } as Handoff)).toEqual(expected);
  });

  it('reports a removed field', () => {
    const { summary: _s, ...rest } = base;
    expect(diffHandoffs(base, rest)).toEqual([{ field: 'summary', change: 'removed', old: 'parser done', new: null }]);
  });

  it('lists changes in schema order, unknown fields last', () => {
    const changed = diffHandoffs(base, { ...base, custom: 3, guards: [], summary: 'x', status: 'paused', session_id: 'n' });
    expect(changed.map((c) => c.field)).toEqual(['session_id', 'status', 'summary', 'guards', 'custom']);
  });
});

describe('renderChanges', () => {
  it('shows list items added and removed, not the whole list', () => {
    const out = renderChanges(diffHandoffs(base, { ...base, guards: ['no force push', 'no deploys on Friday'] }));
    expect(out).toBe('guards:\n  - no lockfile edits\n  + no deploys on Friday\n');
  });

  it('shows multi-line text line by line', () => {
    const out = renderChanges(diffHandoffs({ summary: 'one\ntwo\nthree\n' }, { summary: 'one\n2\nthree\n' }));
    expect(out).toBe('summary:\n    one\n  - two\n  + 2\n    three\n');
  });

  it('shows scalars as old and new, and added or removed fields on one line', () => {
    expect(renderChanges(diffHandoffs(base, { ...base, status: 'done' }))).toBe('status:\n  - active\n  + done\n');
    expect(renderChanges(diffHandoffs(base, { ...base, work_item: 'local:#1' }))).toBe('work_item: + local:#1\n');
    expect(renderChanges(diffHandoffs(base, { ...base, session_id: 's1' }))).toBe('session_id: (none) → s1\n');
    const { custom: _c, ...rest } = base;
    expect(renderChanges(diffHandoffs(base, rest))).toBe('custom: - 1\n');
  });

  it('renders open tracks as readable items', () => {
    const a: Handoff = { open_tracks: [{ name: 'p', readiness: 'ready', entry_point: 'src/p.ts' }] };
    const b: Handoff = { open_tracks: [] };
    expect(renderChanges(diffHandoffs(a, b))).toBe('open_tracks:\n  - name: p, readiness: ready, entry_point: src/p.ts\n');
  });
});
