/**
 * Nothing the user wrote disappears without a word: every write says what it
 * changed, unknown fields are named, list flags add and remove, documents can patch, and
 * session_id is never inherited. Packed CLI, real git.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const BASE = `session_id: sess-001
summary: parser done
cursor:
  last_discussed: quoting rules
  pending_questions: [RFC 4180 exactly?]
  next_step: write the e2e tests
soft_context:
  tone: terse
  notes: [small commits]
open_tracks:
  - name: parser
    readiness: ready
    entry_point: src/parse.ts
guards: [no force push, keep the API]
`;

function fresh(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  return repo;
}

describe('every write says what changed', () => {
  it('prints one line against the previous version, and the same as data in --json', () => {
    const repo = fresh();
    const first = handoff(repo, ['write'], { input: BASE });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[1]).toMatch(/^first version: .*summary.*guards/);
    const doc = BASE.replace('parser done', 'parser and CLI done')
      .replace('write the e2e tests', 'publish')
      .replace('  tone: terse\n', '')
      .replace('guards: [no force push, keep the API]\n', '');
    const w = handoff(repo, ['write'], { input: doc });
    expect(w.code, w.stderr).toBe(0);
    const lines = w.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^wrote version [0-9a-f]{12} for [0-9a-f]{7} on main$/);
    expect(lines[1]).toMatch(/^changed summary, cursor\.next_step; removed soft_context\.tone, 2 guards \(against [0-9a-f]{12}\)$/);

    const j = handoff(repo, ['write', '--json', '--add-guard', 'no new deps', '--summary', 'shipped']);
    expect(j.code, j.stderr).toBe(0);
    expect(Object.keys(j.json)).toEqual(['ok', 'version', 'target', 'unchanged', 'visibility', 'changes', 'handoff']);
    expect(j.json.changes.line).toBe('changed summary; added 1 guard');
    expect(j.json.changes.previous).toMatch(/^[0-9a-f]{40}$/);
    expect(j.json.changes.fields).toEqual([
      { field: 'summary', change: 'changed' },
      { field: 'guards', change: 'added', items_added: ['no new deps'], items_removed: [] },
    ]);
  });
  it("a branch's first version names the other branch's version it was compared against", () => {
    const repo = fresh();
    expect(handoff(repo, ['write'], { input: BASE }).code).toBe(0);
    repo.git('checkout', '-q', '-b', 'feature/x');
    const w = handoff(repo, ['write', '--summary', 'branch work']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout.split('\n')[1]).toMatch(/^changed summary \(against [0-9a-f]{12}, the newest version of main: the first on feature\/x\)$/);
  });
});

describe('unknown fields', () => {
  const doc = 'sumary: the parser is done\nnext_step: write tests\ncursor:\n  pending_question: [which RFC?]\nx_custom: kept\n';

  it('warns with the nearest known field or where it belongs, stores them, and show lists them', () => {
    const repo = fresh();
    const w = handoff(repo, ['write'], { input: doc });
    expect(w.code, w.stderr).toBe(0);
    expect(w.stderr).toContain("git handoff: warning: unknown field 'sumary' (did you mean 'summary'?)");
    expect(w.stderr).toContain("git handoff: warning: unknown field 'next_step' (it belongs under cursor: cursor.next_step)");
    expect(w.stderr).toContain("git handoff: warning: unknown field 'cursor.pending_question' (did you mean 'cursor.pending_questions'?)");
    expect(repo.nativeNote()).toContain('sumary: the parser is done');
    const s = handoff(repo, ['show']);
    expect(s.code).toBe(0);
    const line = s.stdout.split('\n').filter((l) => l.includes('unknown fields'));
    expect(line).toEqual(["unknown fields (not part of the schema, shown by 'show --json'): sumary, next_step, x_custom, cursor.pending_question"]);
  });

  it('--strict and handoff.strict=true refuse them: exit 1, nothing written', () => {
    const repo = fresh();
    const r = handoff(repo, ['write', '--strict'], { input: doc });
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/unknown field 'sumary' \(did you mean 'summary'\?\).*strict/);
    expect(repo.notesRef()).toBeNull();
    repo.git('config', 'handoff.strict', 'true');
    const c = handoff(repo, ['write'], { input: 'summary: ok\ntone: terse\n' });
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/unknown field 'tone' \(it belongs under soft_context: soft_context\.tone\)/);
    expect(repo.notesRef()).toBeNull();
    expect(handoff(repo, ['write'], { input: 'summary: ok\n' }).code).toBe(0);
  });
});

describe('list flags', () => {
  it('--add-X adds, --remove-X removes, --X replaces and says what it dropped', () => {
    const repo = fresh();
    expect(handoff(repo, ['write'], { input: BASE }).code).toBe(0);
    const add = handoff(repo, [
      'write',
      '--json',
      '--add-guard',
      'no new deps',
      '--add-pending-question',
      'ship today?',
      '--add-note',
      'ask before renaming',
      '--add-ask-user',
      'publish?',
    ]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.json.handoff.guards).toEqual(['no force push', 'keep the API', 'no new deps']);
    expect(add.json.handoff.cursor.pending_questions).toEqual(['RFC 4180 exactly?', 'ship today?']);
    expect(add.json.handoff.soft_context.notes).toEqual(['small commits', 'ask before renaming']);
    expect(add.json.handoff.ask_user).toEqual(['publish?']);
    const rm = handoff(repo, ['write', '--json', '--remove-guard', 'keep the API', '--remove-pending-question', 'RFC 4180 exactly?']);
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.json.handoff.guards).toEqual(['no force push', 'no new deps']);
    expect(rm.json.handoff.cursor.pending_questions).toEqual(['ship today?']);
    expect(rm.json.changes.line).toBe('removed 1 pending question, 1 guard');

    const missing = handoff(repo, ['write', '--remove-guard', 'no such guard']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--remove-guard: no guard 'no such guard' to remove \(guards holds 'no force push', 'no new deps'\)/);

    const rep = handoff(repo, ['write', '--guard', 'only this']);
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stderr).toContain("git handoff: warning: --guard replaced guards, dropping 2: 'no force push', 'no new deps'");
    expect(rep.stdout).toMatch(/added 1 guard; removed 2 guards/);

    const help = handoff(repo, ['write', '-h']);
    expect(help.stdout).toMatch(/--guard <text>\s+replace guards with these/);
    expect(help.stdout).toMatch(/--add-guard <text>\s+add one guard/);
    expect(help.stdout).toMatch(/--remove-guard <text>\s+remove this guard/);
  });
});

describe('whole documents and --patch', () => {
  it('a document replaces the whole handoff (and says what went); --patch merges it onto the latest version', () => {
    const repo = fresh();
    expect(handoff(repo, ['write'], { input: BASE }).code).toBe(0);
    const whole = handoff(repo, ['write', '--json', '--dry-run'], { input: 'summary: just this\n' });
    expect(whole.code).toBe(0);
    expect(whole.json.handoff.guards).toEqual([]);
    expect(whole.json.changes.line).toBe(
      'changed summary; removed cursor.last_discussed, 1 pending question, cursor.next_step, soft_context.tone, 1 note, 1 open track, 2 guards',
    );

    const p = handoff(repo, ['write', '--patch', '--json'], { input: 'summary: just this\ncursor:\n  next_step: release\n' });
    expect(p.code, p.stderr).toBe(0);
    const h = p.json.handoff;
    expect(h.summary).toBe('just this');
    expect(h.cursor).toEqual({ last_discussed: 'quoting rules', pending_questions: ['RFC 4180 exactly?'], next_step: 'release' });
    expect(h.soft_context.tone).toBe('terse');
    expect(h.guards).toEqual(['no force push', 'keep the API']);
    expect(h.open_tracks).toHaveLength(1);
    expect(p.json.changes.line).toBe('changed summary, cursor.next_step');
  });
});

describe('session_id', () => {
  it('is never inherited by a patch: --session, else HANDOFF_SESSION_ID, else the live agent session, else none', () => {
    const repo = fresh();
    expect(handoff(repo, ['write'], { input: BASE }).code).toBe(0);
    const none = handoff(repo, ['write', '--json', '--summary', 'from another clone']);
    expect(none.code).toBe(0);
    expect(none.json.handoff.session_id).toBeUndefined();
    const env = handoff(repo, ['write', '--json', '--summary', 'env'], { env: { HANDOFF_SESSION_ID: 'sess-env' } });
    expect(env.json.handoff.session_id).toBe('sess-env');
    const flag = handoff(repo, ['write', '--json', '--summary', 'flag', '--session', 'sess-flag'], { env: { HANDOFF_SESSION_ID: 'sess-env' } });
    expect(flag.json.handoff.session_id).toBe('sess-flag');
    const doc = handoff(repo, ['write', '--json'], { input: 'session_id: sess-doc\nsummary: doc\n', env: { HANDOFF_SESSION_ID: 'sess-env' } });
    expect(doc.json.handoff.session_id).toBe('sess-doc');
    const patch = handoff(repo, ['write', '--patch', '--json'], { input: 'summary: patched\n' });
    expect(patch.json.handoff.session_id).toBeUndefined();
    // the same content again from a named session appends a version: the line says why
    const again = handoff(repo, ['write', '--summary', 'patched', '--session', 'sess-b']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^wrote version .*\nonly session_id changed \(none -> 'sess-b'\) \(against [0-9a-f]{12}\)\n$/);

    // an agent hook's live session (recorded by SessionStart)
    repo.commit('docs: rules', { 'CLAUDE.md': 'session handoff: read on start, write on end\n' });
    const start = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], {
      input: JSON.stringify({ session_id: 'live-42', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' }),
    });
    expect(start.code, start.stderr).toBe(0);
    const live = handoff(repo, ['write', '--json', '--summary', 'live']);
    expect(live.json.handoff.session_id).toBe('live-42');
  });
});
