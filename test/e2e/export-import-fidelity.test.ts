/**
 * Export -> import of an unedited file appends nothing, for every field (unknown
 * ones included); an edit changes only what was edited. Next-session, JSON and YAML.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const FULL = `session_id: s-7
status: paused
summary: |
  Parser done; the CLI is next.
  Decision: util.parseArgs.
cursor:
  last_discussed: the option table
  pending_questions: [short flags?, "a question\\nover two lines"]
  next_step: wire the CLI
  x_inner: kept
soft_context:
  tone: terse
  notes: [the user dislikes long diffs]
open_tracks:
  - name: parser
    readiness: ready
    entry_point: src/parse.ts
ask_user: [publish to npm?]
guards: [no force push]
memory_updates: [parseArgs is enough]
mid_task:
  slug: cli
  where_stopped: halfway through the option table
continuation_refs: [docs/plan.md]
consolidation:
  produced: [docs/x.md]
work_item: "local:#3"
custom_key:
  kept: true
`;

const EDITS: Record<string, [RegExp, string, string]> = {
  'next-session': [/^terse$/m, 'exploring', 'changed soft_context.tone'],
  json: [/"tone": "terse"/, '"tone": "exploring"', 'changed soft_context.tone'],
  yaml: [/^  tone: terse$/m, '  tone: exploring', 'changed soft_context.tone'],
};

describe('export -> import keeps every field', () => {
  it.each(['next-session', 'json', 'yaml'])('%s: unedited appends nothing; one edit changes only that field', (format) => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write'], { input: FULL }).code).toBe(0);
    const tip = repo.notesRef();
    const file = join(repo.dir, '.tasks', `NEXT_SESSION.${format === 'next-session' ? 'md' : format}`);
    expect(handoff(repo, ['export', '--format', format, '-o', file]).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    if (format === 'next-session') {
      for (const heading of ['## Last discussed', '## Pending questions', '## Tone', '## Notes', '## Read next', '## Other fields'])
        expect(text).toContain(heading);
    }

    const same = handoff(repo, ['import', file, '--json']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.json.unchanged).toBe(true);
    expect(repo.notesRef()).toBe(tip);

    const [pattern, replacement, line] = EDITS[format];
    expect(text).toMatch(pattern);
    writeFileSync(file, text.replace(pattern, replacement));
    const edited = handoff(repo, ['import', file, '--json']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.json.unchanged).toBe(false);
    expect(edited.json.changes.line).toBe(line);
    const h = edited.json.handoff;
    expect(h.soft_context.tone).toBe('exploring');
    expect(h.cursor).toEqual({
      last_discussed: 'the option table',
      pending_questions: ['short flags?', 'a question\nover two lines'],
      next_step: 'wire the CLI',
      x_inner: 'kept',
    });
    expect(h.summary).toBe('Parser done; the CLI is next.\nDecision: util.parseArgs.\n');
    expect(h.soft_context.notes).toEqual(['the user dislikes long diffs']);
    expect(h.custom_key).toEqual({ kept: true });
    expect(h.mid_task).toEqual({ slug: 'cli', where_stopped: 'halfway through the option table' });
    expect(h.consolidation).toEqual({ triggered: true, produced: ['docs/x.md'] });
    expect(h.work_item).toBe('local:#3');
    expect(h.continuation_refs).toEqual(['docs/plan.md']);
  });
});

describe('a track with extra keys (found in review)', () => {
  it('an edit of its table row is kept, and the extra key still round-trips', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const input = `summary: s
open_tracks:
  - name: alpha
    readiness: half
    entry_point: a.ts
    owner: bob
  - name: beta
    readiness: low
    entry_point: b.ts
`;
    expect(handoff(repo, ['write'], { input }).code).toBe(0);
    const file = join(repo.dir, 'NEXT_SESSION.md');
    expect(handoff(repo, ['export', '-o', file]).code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(handoff(repo, ['import', file, '--json']).json.unchanged).toBe(true);
    expect(text).toContain('| beta | low | b.ts |');
    writeFileSync(file, text.replace('| beta | low | b.ts |', '| beta | high | b.ts |').replace('| alpha | half | a.ts |', '| alpha | done | a.ts |'));
    const edited = handoff(repo, ['import', file, '--json']);
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.json.unchanged).toBe(false);
    expect(edited.json.handoff.open_tracks).toEqual([
      { name: 'alpha', readiness: 'done', entry_point: 'a.ts', owner: 'bob' },
      { name: 'beta', readiness: 'high', entry_point: 'b.ts' },
    ]);
  });
});
