/**
 * Issue 25, what a new user writes: `null` in a patch removes the key (known and unknown
 * fields alike), an empty write prints the usage and writes nothing, `uninstall` takes the
 * agent session records with it, and a write is never credited to an agent session that
 * ended or that the person at the terminal is not.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { handoffOnTty } from '../helpers/tty.js';

function repoWithCommit(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n', 'CLAUDE.md': 'session handoff: read on start, write on end\n' });
  return repo;
}

const note = (repo: TestRepo) => repo.nativeNote()!;

describe('null in a patch removes the key', () => {
  it('an unknown field: gone from the note, no warning then or on a later import', () => {
    const repo = repoWithCommit();
    const first = handoff(repo, ['write'], { input: 'summary: parser done\nsumary: parser done\n' });
    expect(first.stderr).toContain("unknown field 'sumary' (did you mean 'summary'?)");
    expect(note(repo)).toMatch(/^sumary: parser done$/m);
    const patch = handoff(repo, ['write', '--patch'], { input: 'sumary: null\n' });
    expect(patch.code, patch.stderr).toBe(0);
    expect(patch.stdout).toMatch(/^removed sumary \(against [0-9a-f]{12}\)$/m);
    expect(patch.stderr).toBe('');
    expect(note(repo)).not.toContain('sumary');
    expect(note(repo)).toMatch(/^summary: parser done$/m);
    // every later write and import is quiet about it
    const exported = handoff(repo, ['export', '--format', 'yaml']);
    expect(exported.code, exported.stderr).toBe(0);
    const imported = handoff(repo, ['import', '--format', 'yaml', '-'], { input: exported.stdout });
    expect(imported.stderr).not.toContain('sumary');
    // strict mode refuses unknown fields, not their removal
    handoff(repo, ['write'], { input: 'summary: parser done\nextra: 1\n' });
    const strict = handoff(repo, ['write', '--patch', '--strict'], { input: 'extra: null\n' });
    expect(strict.code, strict.stderr).toBe(0);
    expect(note(repo)).not.toContain('extra');
  });

  it('known fields, top-level and inside cursor and soft_context, go back to empty; unknown ones inside them go', () => {
    const repo = repoWithCommit();
    const input =
      'summary: parser done\ncursor:\n  next_step: wire the CLI\n  last_discussed: quoting\n  nxt_step: typo\nsoft_context:\n  tone: terse\nguards: [no force push]\n';
    expect(handoff(repo, ['write'], { input }).code).toBe(0);
    const r = handoff(repo, ['write', '--patch', '--json'], {
      input: 'cursor:\n  next_step: null\n  nxt_step: null\nsoft_context:\n  tone: null\nguards: null\n',
    });
    expect(r.code, r.stderr).toBe(0);
    const h = r.json.handoff;
    expect(h.cursor).toEqual({ last_discussed: 'quoting', pending_questions: [], next_step: '' });
    expect(h.soft_context).toEqual({ tone: '', notes: [] });
    expect(h.guards).toEqual([]);
    expect(r.stderr).toBe('');
    expect(h.summary).toBe('parser done');
    expect(note(repo)).not.toContain(': null');
  });
});

describe('an empty write', () => {
  it('no flags and no input: the usage, exit 2, nothing written', () => {
    const repo = repoWithCommit();
    expect(handoff(repo, ['write', '--summary', 'parser done']).code).toBe(0);
    const tip = repo.notesRef();
    const r = handoff(repo, ['write']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('usage: git handoff write [options]');
    expect(lines.at(-1)).toBe(
      "git handoff: write: nothing to write: give the handoff on stdin or with --file, or set fields with flags; nothing was written (see 'git handoff write -h')",
    );
    for (const args of [
      ['write', '--json'],
      ['write', '--patch'],
      ['write', '--dry-run'],
    ]) {
      const again = handoff(repo, args, { input: '  \n' });
      expect(again.code, args.join(' ')).toBe(2);
    }
    expect(handoff(repo, ['write', '--json']).json.error.code).toBe('UsageError');
    expect(repo.notesRef()).toBe(tip);
    // a terminal with nothing typed is the same
    const tty = handoffOnTty(repo, ['write']);
    expect(tty.code).toBe(2);
    expect(tty.stdout).toBe('');
    expect(repo.notesRef()).toBe(tip);
  });
});

describe('agent sessions and later writes', () => {
  const start = (repo: TestRepo, id: string, env: NodeJS.ProcessEnv = {}) => {
    const input = JSON.stringify({ session_id: id, transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' });
    const r = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input, env });
    expect(r.code, r.stderr).toBe(0);
  };
  const sessionsDir = (repo: TestRepo) => join(repo.dir, '.git/handoff/sessions');
  const later = (repo: TestRepo, hours: number) => ({
    GIT_COMMITTER_DATE: `@${repo.clock + hours * 3600} +0000`,
    GIT_AUTHOR_DATE: `@${repo.clock + hours * 3600} +0000`,
  });

  it('uninstall removes the session records the agent hooks wrote', () => {
    const repo = repoWithCommit();
    expect(handoff(repo, ['init', '--agent', 'claude']).code).toBe(0);
    start(repo, 'demo-1');
    expect(readdirSync(sessionsDir(repo))).toEqual(['demo-1.json']);
    const u = handoff(repo, ['uninstall']);
    expect(u.code, u.stderr).toBe(0);
    expect(existsSync(sessionsDir(repo))).toBe(false);
    // and a write after it is nobody's session
    const w = handoff(repo, ['write', '--summary', 'by hand', '--json']);
    expect(w.json.handoff.session_id).toBeUndefined();
  });

  it('a session that fell silent long ago lends no id; a live one still does, except to a person at a terminal', () => {
    const repo = repoWithCommit();
    start(repo, 'demo-1');
    // an agent's shell command that names no session, while the session is live
    expect(handoff(repo, ['write', '--summary', 'by the agent', '--json']).json.handoff.session_id).toBe('demo-1');
    // a person at a terminal is not that agent
    expect(handoffOnTty(repo, ['write', '--summary', 'by hand at a terminal']).code).toBe(0);
    expect(handoff(repo, ['show', '--json']).json.handoff.session_id).toBeUndefined();
    // days later, with no session-end ever received
    const w = handoff(repo, ['write', '--summary', 'two days later', '--json'], { env: later(repo, 48) });
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.session_id).toBeUndefined();
  });
});

describe('init --agent claude and the CLAUDE.md it creates', () => {
  const status = (repo: TestRepo) => repo.git('status', '--porcelain', '--untracked-files=all');

  it('a CLAUDE.md init creates goes with the local hooks: kept out of git, and uninstall takes it back', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const before = readFileSync(join(repo.dir, '.git/info/exclude'), 'utf8');
    const r = handoff(repo, ['init', '--agent', 'claude']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('keep CLAUDE.md out of git (.git/info/exclude)');
    expect(readFileSync(join(repo.dir, 'CLAUDE.md'), 'utf8')).toContain('session handoff: read on start, write on end');
    expect(status(repo)).toBe('');
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(existsSync(join(repo.dir, 'CLAUDE.md'))).toBe(false);
    expect(readFileSync(join(repo.dir, '.git/info/exclude'), 'utf8')).toBe(before);
  });

  it('with --shared it is left to commit, as the committed settings are', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['init', '--agent', 'claude', '--shared']).code).toBe(0);
    expect(status(repo).split('\n')).toEqual(expect.arrayContaining(['?? CLAUDE.md', '?? .claude/settings.json']));
  });

  it('a CLAUDE.md the project already tracks gets the line and stays the project’s to commit', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'CLAUDE.md': '# Rules\n' });
    expect(handoff(repo, ['init', '--agent', 'claude']).code).toBe(0);
    expect(status(repo)).toBe(' M CLAUDE.md\n');
    expect(readFileSync(join(repo.dir, '.git/info/exclude'), 'utf8')).not.toContain('CLAUDE.md');
  });
});
