/**
 * The agent hooks exactly as `init --agent` registers them (`git-handoff-hook <event> --agent
 * A`, run by `sh -c` as the agents run them), through the installed package: an ordinary
 * prompt and an ordinary stop are answered in the shell, without Node; a session end, and
 * whatever the shell cannot read for sure, reach `git-handoff hook` with the same input. A
 * `git-handoff` first on PATH that logs each call says whether Node was started.
 */
import { describe, expect, it, inject } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';

const TRIGGER = 'session handoff: read on start, write on end';
const WRITE_NOW = 'the user is ending the session';

/** A repository with a handoff and `agent`'s hooks installed; `node` counts the starts of git-handoff. */
function setUp(agent: string, file = 'CLAUDE.md') {
  const repo = TestRepo.init();
  repo.commit('feat: start', { [file]: `# Rules\n\n${TRIGGER}\n`, 'a.txt': 'a\n' });
  expect(handoff(repo, ['init', '--agent', agent]).code).toBe(0);
  handoff(repo, ['write', '--summary', 'parser half done']);
  const spy = tempDir('handoff-spy-');
  const log = join(spy, 'calls');
  writeFileSync(join(spy, 'git-handoff'), `#!/bin/sh\necho "$*" >>'${log}'\nexec '${join(inject('binDir'), 'git-handoff')}' "$@"\n`);
  chmodSync(join(spy, 'git-handoff'), 0o755);
  const node = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return { repo, spy, node };
}

/** The command init registered for `native` in `settingsFile`, run as the agent runs it. */
function registered(repo: TestRepo, settingsFile: string, native: string): string {
  const s = JSON.parse(readFileSync(join(repo.dir, settingsFile), 'utf8'));
  const list = s.hooks?.[native] ?? s[native];
  const h = list[0].hooks?.[0] ?? list[0];
  return h.command ?? h.bash;
}

function run(repo: TestRepo, spy: string, command: string, input: object | string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync('sh', ['-c', command], {
    cwd: repo.dir,
    env: { ...repo.tick(), PATH: `${spy}:${cliPath()}`, ...env },
    input: typeof input === 'string' ? input : JSON.stringify(input),
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('git-handoff-hook, as init registers it', () => {
  it('Claude Code: an ordinary prompt and stop start no Node; a session end does, and the stop after it blocks once', () => {
    const { repo, spy, node } = setUp('claude');
    const file = '.claude/settings.local.json';
    const [start, prompt, stop] = ['SessionStart', 'UserPromptSubmit', 'Stop'].map((n) => registered(repo, file, n));
    expect(prompt).toBe('git-handoff-hook user-prompt-submit --agent claude');
    const base = { session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: repo.dir, permission_mode: 'default' };
    expect(run(repo, spy, start, { ...base, hook_event_name: 'SessionStart', source: 'startup' }).stdout).toContain('parser half done');
    expect(node()).toEqual(['hook session-start --agent claude']);

    const ordinary = run(repo, spy, prompt, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'fix the failing test, then run the suite' });
    expect(ordinary).toEqual({ code: 0, stdout: '', stderr: '' });
    const seen = join(repo.dir, '.git/handoff/sessions/sess-1.seen');
    expect(existsSync(seen)).toBe(false);
    expect(run(repo, spy, stop, { ...base, hook_event_name: 'Stop', stop_hook_active: false })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(seen)).toBe(true); // the stop is recorded: the session was heard from
    expect(node()).toHaveLength(1);

    const end = run(repo, spy, prompt, { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'Завершаем сессию, спасибо' });
    expect(JSON.parse(end.stdout).hookSpecificOutput.additionalContext).toContain(WRITE_NOW);
    expect(existsSync(join(repo.dir, '.git/handoff/sessions/sess-1.end-requested'))).toBe(true);
    const blocked = run(repo, spy, stop, { ...base, hook_event_name: 'Stop', stop_hook_active: false });
    expect(JSON.parse(blocked.stdout)).toEqual({ decision: 'block', reason: expect.stringContaining('no handoff was written') });
    expect(node()).toEqual(['hook session-start --agent claude', 'hook user-prompt-submit --agent claude', 'hook stop --agent claude']);
    // blocked once: the mark is gone, the next stops are the shell's again
    expect(existsSync(join(repo.dir, '.git/handoff/sessions/sess-1.end-requested'))).toBe(false);
    expect(run(repo, spy, stop, { ...base, hook_event_name: 'Stop', stop_hook_active: true }).stdout).toBe('');
    expect(run(repo, spy, stop, { ...base, hook_event_name: 'Stop', stop_hook_active: false }).stdout).toBe('');
    expect(node()).toHaveLength(3);
  });

  it('whatever the shell cannot read for sure goes to Node with the same input, never to silence', () => {
    const { repo, spy, node } = setUp('claude');
    const prompt = registered(repo, '.claude/settings.local.json', 'UserPromptSubmit');
    const base = { session_id: 'sess-1', cwd: repo.dir, hook_event_name: 'UserPromptSubmit' };
    // a \u escape, a full-width phrase, a decomposed letter, a policy file that may change the phrase lists
    const escaped = JSON.stringify({ ...base, prompt: 'end session' }).replace('end', '\\u0065nd');
    expect(JSON.parse(run(repo, spy, prompt, escaped).stdout).hookSpecificOutput.additionalContext).toContain(WRITE_NOW);
    expect(JSON.parse(run(repo, spy, prompt, { ...base, prompt: 'ＥＮＤ ＳＥＳＳＩＯＮ' }).stdout).hookSpecificOutput.additionalContext).toContain(WRITE_NOW);
    expect(
      JSON.parse(run(repo, spy, prompt, { ...base, prompt: 'давай продолжим завтра'.normalize('NFD') }).stdout).hookSpecificOutput.additionalContext,
    ).toContain(WRITE_NOW);
    expect(node()).toHaveLength(3);
    mkdirSync(join(repo.dir, '.harness'));
    writeFileSync(join(repo.dir, '.harness/session-workflow.yaml'), 'phrases:\n  session_end: [ship it]\n');
    expect(run(repo, spy, prompt, { ...base, prompt: 'fix the test' }).code).toBe(0);
    expect(node()).toHaveLength(4);
    // bad input: Node's one stderr line, exit 0
    const bad = run(repo, spy, prompt, 'not json');
    expect(bad.code).toBe(0);
    expect(bad.stderr).toMatch(/hook input is not JSON/);
    expect(node()).toHaveLength(5);
  });

  it('HANDOFF_SKIP=1 turns it off; outside a repository an ordinary turn is nothing', () => {
    const { repo, spy, node } = setUp('claude');
    const prompt = registered(repo, '.claude/settings.local.json', 'UserPromptSubmit');
    const r = run(repo, spy, prompt, { session_id: 's', cwd: repo.dir, prompt: 'end session' }, { HANDOFF_SKIP: '1' });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const outside = tempDir();
    expect(run(repo, spy, prompt, { session_id: 's', cwd: outside, prompt: 'fix it' })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(node()).toEqual([]);
  });

  it("Cursor: its own answer for nothing; Claude Code's hook run by Cursor is left to Node, which answers in Cursor's format", () => {
    const { repo, spy, node } = setUp('cursor', 'AGENTS.md');
    const prompt = registered(repo, '.cursor/hooks.json', 'beforeSubmitPrompt');
    const stop = registered(repo, '.cursor/hooks.json', 'stop');
    const base = { conversation_id: 'c-1', generation_id: 'g-1', workspace_roots: [repo.dir], cursor_version: '1.7' };
    expect(run(repo, spy, prompt, { ...base, hook_event_name: 'beforeSubmitPrompt', prompt: 'fix the test' }).stdout).toBe('{"continue":true}\n');
    expect(node()).toHaveLength(1); // workspace_roots is not read in the shell: Node
    expect(run(repo, spy, prompt, { ...base, workspace_roots: undefined, cwd: repo.dir, prompt: 'fix the test' }).stdout).toBe('{"continue":true}\n');
    expect(run(repo, spy, stop, { ...base, workspace_roots: undefined, cwd: repo.dir, status: 'completed', loop_count: 1 }).stdout).toBe('');
    expect(node()).toHaveLength(1);
    const claude = 'git-handoff-hook user-prompt-submit --agent claude';
    writeFileSync(join(repo.dir, 'CLAUDE.md'), `${TRIGGER}\n`);
    run(repo, spy, claude, { ...base, cwd: repo.dir, prompt: 'fix the test' });
    expect(node()).toHaveLength(2);
  });

  it("Gemini: BeforeAgent and AfterAgent as registered; a session's seen_at follows the shell's stops", () => {
    const { repo, spy, node } = setUp('gemini', 'GEMINI.md');
    const file = '.gemini/settings.json';
    const [start, prompt, stop] = ['SessionStart', 'BeforeAgent', 'AfterAgent'].map((n) => registered(repo, file, n));
    const base = { session_id: 'g-1', transcript_path: '/tmp/g.json', cwd: repo.dir, timestamp: '2026-01-01T00:00:00Z' };
    run(repo, spy, start, { ...base, hook_event_name: 'SessionStart', source: 'startup' });
    expect(run(repo, spy, prompt, { ...base, hook_event_name: 'BeforeAgent', prompt: 'rename the helper' })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(
      run(repo, spy, stop, { ...base, hook_event_name: 'AfterAgent', prompt: 'rename the helper', prompt_response: 'done', stop_hook_active: false }).stdout,
    ).toBe('');
    expect(node()).toEqual(['hook session-start --agent gemini']);
    const sessions = join(repo.dir, '.git/handoff/sessions');
    expect(readdirSync(sessions).sort()).toEqual(['g-1.json', 'g-1.seen']);
    // A new session 13 hours (of the commit clock) later: g-1 was heard from since its record
    // was written, by the .seen file's time, so it is live and kept. Dated back to its start,
    // the same stop makes it a finished session, judged and retired.
    const later = `@${repo.clock + 13 * 3600} +0000`;
    run(
      repo,
      spy,
      start,
      { ...base, session_id: 'g-2', hook_event_name: 'SessionStart', source: 'startup' },
      { GIT_COMMITTER_DATE: later, GIT_AUTHOR_DATE: later },
    );
    expect(readdirSync(sessions).sort()).toEqual(['g-1.json', 'g-1.seen', 'g-2.json']);
    const started = Date.parse(JSON.parse(readFileSync(join(sessions, 'g-1.json'), 'utf8')).started_at) / 1000;
    utimesSync(join(sessions, 'g-1.seen'), started, started);
    expect(statSync(join(sessions, 'g-1.seen')).mtimeMs).toBe(started * 1000);
    run(
      repo,
      spy,
      start,
      { ...base, session_id: 'g-3', hook_event_name: 'SessionStart', source: 'startup' },
      { GIT_COMMITTER_DATE: later, GIT_AUTHOR_DATE: later },
    );
    expect(readdirSync(sessions).sort()).toEqual(['g-2.json', 'g-3.json']);
  });
});

describe('hooks registered in the old form (git handoff hook ..., Node on every turn)', () => {
  /** Every file of the work tree but .git, and .git/info/exclude. */
  function files(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (rel: string) => {
      for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (p === '.git') continue;
        if (e.isDirectory()) walk(p);
        else out[p] = readFileSync(join(dir, p), 'utf8');
      }
    };
    walk('');
    out['.git/info/exclude'] = readFileSync(join(dir, '.git/info/exclude'), 'utf8');
    return out;
  }
  /** What an install by an earlier version looked like: the same files, the old command. */
  const toOldForm = (text: string) =>
    text
      .replace(/git-handoff-hook ([a-z-]+) --agent/g, 'git handoff hook $1 --agent')
      .replace("spawn('git-handoff-hook', [event,", "spawn('git', ['handoff', 'hook', event,");

  it('doctor flags them, --fix registers git-handoff-hook instead, and uninstall leaves nothing behind', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'README.md': '# r\n' });
    const before = files(repo.dir);
    expect(handoff(repo, ['init', '--agent', 'claude,gemini,copilot,opencode']).code).toBe(0);
    const hookFiles = ['.claude/settings.local.json', '.gemini/settings.json', '.github/hooks/git-handoff.json', '.opencode/plugins/git-handoff.js'];
    const current = Object.fromEntries(hookFiles.map((f) => [f, readFileSync(join(repo.dir, f), 'utf8')]));
    // as an earlier version installed them: the install record holds the old files' hashes
    const recordFile = join(repo.dir, '.git/handoff/install.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8'));
    for (const f of hookFiles) {
      const old = toOldForm(current[f]);
      expect(old, f).not.toBe(current[f]);
      writeFileSync(join(repo.dir, f), old);
      const entry = record.files.find((e: any) => e.path === f);
      entry.after = createHash('sha1').update(old).digest('hex');
    }
    writeFileSync(recordFile, JSON.stringify(record));
    const check = handoff(repo, ['doctor', '--json']);
    expect(check.code).toBe(1);
    const flagged = check.json.findings.filter((f: any) => f.kind === 'install' && f.fixable);
    expect(flagged.map((f: any) => f.subject.slice(repo.dir.length + 1)).sort()).toEqual([...hookFiles].sort());
    expect(flagged.find((f: any) => f.subject.endsWith('.claude/settings.local.json')).message).toContain(
      "register the hooks as git-handoff-hook (which answers an ordinary turn without starting Node) instead of 'git handoff hook'",
    );
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    for (const f of hookFiles) expect(readFileSync(join(repo.dir, f), 'utf8'), f).toBe(current[f]);
    expect(handoff(repo, ['doctor', '--json']).json.findings.filter((f: any) => f.kind === 'install')).toEqual([]);
    // a settings file with both forms (an old Stop entry beside the new one) keeps one entry, the new one
    const claude = JSON.parse(current['.claude/settings.local.json']);
    claude.hooks.Stop[0].hooks.unshift({ type: 'command', command: 'git handoff hook stop --agent claude', timeout: 30 });
    writeFileSync(join(repo.dir, '.claude/settings.local.json'), JSON.stringify(claude, null, 2));
    expect(handoff(repo, ['init', '--agent', 'claude']).code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo.dir, '.claude/settings.local.json'), 'utf8')).hooks.Stop).toEqual([
      { hooks: [{ type: 'command', command: 'git-handoff-hook stop --agent claude', timeout: 30 }] },
    ]);
    expect(handoff(repo, ['uninstall']).code).toBe(0);
    expect(files(repo.dir)).toEqual(before);
  });
});
