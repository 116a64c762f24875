import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const FULL = `session_id: s-7
status: paused
summary: |-
  Parser done; the CLI is next.
  Decision: util.parseArgs.
cursor:
  last_discussed: the option table
  pending_questions: [short flags?]
  next_step: wire the CLI
soft_context:
  tone: terse
  notes: [the user dislikes long diffs]
open_tracks:
  - name: parser
    readiness: ready
    entry_point: src/parse.ts
  - name: docs | man page
    readiness: started
    entry_point: man/
ask_user: [publish to npm?]
guards: [no force push]
memory_updates: [parseArgs is enough]
mid_task:
  slug: cli
  where_stopped: halfway through the option table
continuation_refs: [docs/plan.md]
work_item: "local:#3"
custom_key:
  kept: true
`;

function userFields(h: Record<string, unknown>) {
  const { date, branch, head, head_tree, head_patch_id, recent_commits, content_hashes, ...rest } = h;
  return rest;
}

describe('export and import', () => {
  const src = TestRepo.init();
  src.commit('feat: start', { 'a.txt': 'a\n' });
  const w = handoff(src, ['write', '--json'], { input: FULL });

  it.each(['json', 'yaml'])('%s round-trips every field', (format) => {
    expect(w.code).toBe(0);
    const out = handoff(src, ['export', '--format', format]);
    expect(out.code).toBe(0);
    if (format === 'yaml') expect(out.stdout).toBe(src.nativeNote()); // the stored canonical note, byte for byte
    const dst = TestRepo.init();
    dst.commit('feat: other', { 'b.txt': 'b\n' });
    const imp = handoff(dst, ['import', '-', '--json'], { input: out.stdout });
    expect(imp.code).toBe(0);
    expect(imp.json.format).toBe('document');
    expect(userFields(imp.json.handoff)).toEqual(userFields(w.json.handoff));
    const again = handoff(dst, ['export', '--format', format]);
    const back = format === 'json' ? JSON.parse(again.stdout) : imp.json.handoff;
    expect(userFields(back)).toEqual(userFields(w.json.handoff));
    dst.fsck();
  });

  it('next-session round-trips the fields it carries, through a file', () => {
    const file = join(src.dir, '.tasks/NEXT_SESSION.md');
    const e = handoff(src, ['export', '-o', '.tasks/NEXT_SESSION.md']);
    expect(e.code).toBe(0);
    const md = readFileSync(file, 'utf8');
    expect(md).toMatch(/^---\n_last_updated_: "2026-01-01T00:0\d:00Z"\nsession_id: s-7\nstatus: paused\nwork_item: local:#3\n---\n\n# Next session handoff\n/);
    expect(md).toContain('| Track | Readiness | Entry point |\n|---|---|---|\n| parser | ready | src/parse.ts |\n| docs \\| man page | started | man/ |');
    expect(md).toContain("## Don't do\n\n- no force push\n");
    expect(md).toContain('## Recent commits\n\n- ');

    const dst = TestRepo.init();
    dst.commit('feat: other', { 'b.txt': 'b\n' });
    dst.write('NEXT.md', md);
    const imp = handoff(dst, ['import', 'NEXT.md', '--json']);
    expect(imp.code).toBe(0);
    expect(imp.json.format).toBe('next-session');
    const carried = ['session_id', 'status', 'summary', 'open_tracks', 'ask_user', 'guards', 'memory_updates'];
    for (const k of carried) expect(imp.json.handoff[k], k).toEqual(w.json.handoff[k]);
    expect(imp.json.handoff.cursor.next_step).toBe('wire the CLI');
    expect(
      handoff(dst, ['export'])
        .stdout.replace(/^_last_updated_.*$/m, '')
        .replace(/## Recent commits[\s\S]*?\n\n## /, ''),
    ).toBe(md.replace(/^_last_updated_.*$/m, '').replace(/## Recent commits[\s\S]*?\n\n## /, ''));
  });

  it('imports a NEXT_SESSION.md written with the Russian headings', () => {
    const dst = TestRepo.init();
    dst.commit('feat: x', { 'x.txt': 'x\n' });
    const md = `---\n_last_updated_: 2025-05-24\nsession_id: 2025-05-24\n---\n# Next session handoff\n\n## Recent commits\n- abc1234: feat: x\n\n## Open треки\n| Трек | Готовность | Entry-point |\n|---|---|---|\n| парсер | 80% | src/parse.ts |\n\n## Спроси user'а\n- публикуем?\n\n## Не делать (preemptive guards)\n- не пушить с --force\n\n## Memory updates за сессию\n(нет на этом раунде)\n`;
    const imp = handoff(dst, ['import', '-', '--json'], { input: md });
    expect(imp.code).toBe(0);
    expect(imp.json.handoff).toMatchObject({
      session_id: '2025-05-24',
      open_tracks: [{ name: 'парсер', readiness: '80%', entry_point: 'src/parse.ts' }],
      ask_user: ['публикуем?'],
      guards: ['не пушить с --force'],
      memory_updates: [],
    });
    expect(dst.nativeNote()).toContain('memory_updates: []');
  });

  it('refuses what write refuses, and writes nothing', () => {
    const dst = TestRepo.init();
    dst.commit('feat: x');
    const bad = handoff(dst, ['import', '-'], { input: '## Ask the user\n- token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/secret found in ask_user/);
    expect(dst.notesRef()).toBeNull();
    const dry = handoff(dst, ['import', '-', '--dry-run'], { input: '## Ask the user\n- ship it?\n' });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^dry run: would append a version for [0-9a-f]{7} with this note:\n/);
    expect(dry.stdout).toContain('ask_user:\n  - ship it?');
    expect(dst.notesRef()).toBeNull();
    expect(handoff(dst, ['import', 'missing.md']).code).toBe(1);
    expect(handoff(dst, ['export']).code).toBe(1);
    expect(handoff(dst, ['export', '--format', 'toml']).code).toBe(2);
  });
});
