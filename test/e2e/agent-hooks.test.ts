/**
 * `git handoff hook <event> --agent A` fed the JSON each agent sends (Claude Code, Codex CLI,
 * Gemini CLI), through the installed CLI, checking the answer in each agent's format.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks } from '../helpers/hooks.js';

const TRIGGER = 'session handoff: read on start, write on end';

function project(file = 'CLAUDE.md'): TestRepo {
  const repo = TestRepo.init();
  repo.commit('feat: start', { [file]: `# Rules\n\n${TRIGGER}\n`, 'a.txt': 'a\n' });
  return repo;
}

/** What Claude Code sends (code.claude.com/docs/en/hooks): common fields plus the event's own. */
function claudeInput(repo: TestRepo, event: string, extra: Record<string, unknown>) {
  return JSON.stringify({ session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: repo.dir, permission_mode: 'default', hook_event_name: event, ...extra });
}

function hook(repo: TestRepo, agent: string, event: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const r = handoff(repo, ['hook', event, '--agent', agent], { input, env });
  return { ...r, out: r.stdout ? JSON.parse(r.stdout) : null };
}

const start = (repo: TestRepo, id = 'sess-1', env: NodeJS.ProcessEnv = {}, source = 'startup') =>
  hook(repo, 'claude', 'session-start', claudeInput(repo, 'SessionStart', { session_id: id, source, model: 'claude-sonnet' }), env);
const prompt = (repo: TestRepo, text: string, id = 'sess-1') =>
  hook(repo, 'claude', 'user-prompt-submit', claudeInput(repo, 'UserPromptSubmit', { session_id: id, prompt: text }));
const stop = (repo: TestRepo, active = false, id = 'sess-1') =>
  hook(repo, 'claude', 'stop', claudeInput(repo, 'Stop', { session_id: id, stop_hook_active: active }));
const end = (repo: TestRepo, id = 'sess-1') =>
  hook(repo, 'claude', 'session-end', claudeInput(repo, 'SessionEnd', { session_id: id, reason: 'prompt_input_exit' }));

describe('Claude Code', () => {
  it('session-start: the bookmark as additionalContext, told to orient and ask; the session id exported through CLAUDE_ENV_FILE', () => {
    const repo = project();
    handoff(repo, ['write', '--summary', 'parser done', '--next-step', 'wire the CLI', '--guard', 'no force push']);
    const envFile = join(tempDir(), 'env.sh');
    const r = start(repo, 'sess-1', { CLAUDE_ENV_FILE: envFile });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(Object.keys(r.out)).toEqual(['hookSpecificOutput']);
    expect(r.out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    const ctx: string = r.out.hookSpecificOutput.additionalContext;
    expect(ctx).toMatch(/advice, not an order: orient yourself, summarise it for the user in one block .* and ask before acting/);
    expect(ctx).toContain('next step: wire the CLI');
    expect(ctx).toContain('no force push');
    expect(ctx).toMatch(/warning: this handoff is stale: written \d+ days ago/); // the test clock is in January
    expect(readFileSync(envFile, 'utf8')).toBe("export HANDOFF_SESSION_ID='sess-1'\nexport HANDOFF_AGENT='claude'\n");
    // a resumed session exports nothing twice
    start(repo, 'sess-1', { CLAUDE_ENV_FILE: envFile }, 'resume');
    expect(readFileSync(envFile, 'utf8').split('\n')).toHaveLength(3);
    // the exported id is what write records
    const w = handoff(repo, ['write', '--summary', 'next', '--json'], { env: { HANDOFF_SESSION_ID: 'sess-1' } });
    expect(w.json.handoff.session_id).toBe('sess-1');
  });

  it('session-start: a due handoff, and "the previous session ended without writing a handoff"', () => {
    const repo = project();
    repo.git('config', 'handoff.staleDays', '100000');
    handoff(repo, ['write', '--summary', 'first']);
    start(repo, 'sess-1');
    repo.commit('feat: more work', { 'b.txt': 'b\n' });
    end(repo, 'sess-1');
    const r = start(repo, 'sess-2');
    const ctx: string = r.out.hookSpecificOutput.additionalContext;
    expect(ctx).toContain('git handoff: the previous session ended without writing a handoff.');
    expect(ctx).toMatch(/a handoff is due: commit [0-9a-f]{7} was made since this one/);
    expect(ctx).not.toContain('stale');
    // a session that wrote one leaves no such line behind
    handoff(repo, ['write', '--summary', 'second']);
    end(repo, 'sess-2');
    expect(start(repo, 'sess-3').out.hookSpecificOutput.additionalContext).not.toContain('ended without');
    // the same session compacted: no "previous session" line either
    expect(start(repo, 'sess-3', {}, 'compact').out.hookSpecificOutput.additionalContext).not.toContain('previous session ended');
  });

  it('two sessions in one worktree keep a record each: no false "previous session" line, each stop blocks, the live one stays the commit boundary', () => {
    const repo = project();
    expect(handoff(repo, ['init']).code).toBe(0);
    repo.git('config', 'handoff.staleDays', '100000');
    handoff(repo, ['write', '--summary', 'first']);
    const reminded = (r: { code: number; stderr: string }) => (expect(r.code).toBe(0), /substantive commit/.test(r.stderr));
    expect(reminded(commitWithHooks(repo, 'feat: the first commit after the handoff'))).toBe(true);

    start(repo, 'sess-a');
    const b = start(repo, 'sess-b');
    expect(b.out.hookSpecificOutput.additionalContext).not.toContain('previous session ended');
    prompt(repo, 'we are done for now', 'sess-a');
    prompt(repo, 'end session', 'sess-b');
    expect(stop(repo, false, 'sess-a').out).toEqual({ decision: 'block', reason: expect.any(String) });
    expect(stop(repo, false, 'sess-b').out).toEqual({ decision: 'block', reason: expect.any(String) });
    expect(stop(repo, false, 'sess-a').stdout).toBe(''); // once each
    expect(readdirSync(join(repo.dir, '.git/handoff/sessions')).sort()).toEqual(['sess-a.json', 'sess-b.json']);

    // b ends; a is still working: its start is still the boundary of the first-commit rule.
    end(repo, 'sess-b');
    expect(reminded(commitWithHooks(repo, 'feat: the first commit in session a'))).toBe(true);
    expect(reminded(commitWithHooks(repo, 'feat: the second one'))).toBe(false);
    // Named by the committing agent, a live session is the boundary even when another started later.
    start(repo, 'sess-c');
    expect(reminded(commitWithHooks(repo, 'feat: a again', {}, { env: { HANDOFF_SESSION_ID: 'sess-a' } }))).toBe(false);
    expect(reminded(commitWithHooks(repo, 'feat: first since c started', {}, { env: { HANDOFF_SESSION_ID: 'sess-c' } }))).toBe(false);

    // A session starting after both ended hears about the one that ended last, and only once.
    end(repo, 'sess-a');
    end(repo, 'sess-c');
    const d = start(repo, 'sess-d');
    expect(d.out.hookSpecificOutput.additionalContext).toContain('git handoff: the previous session ended without writing a handoff.');
    expect(readdirSync(join(repo.dir, '.git/handoff/sessions'))).toEqual(['sess-d.json']);
    expect(start(repo, 'sess-e').out.hookSpecificOutput.additionalContext).not.toContain('previous session ended');
  });

  it('reads the single session record older versions wrote, and retires it once its session writes again', () => {
    const repo = project();
    handoff(repo, ['write', '--summary', 'first']);
    const legacy = join(repo.dir, '.git/handoff/session.json');
    start(repo, 'sess-new');
    // started after the handoff above (the test clock starts on 2026-01-01 and moves a minute per git call)
    writeFileSync(
      legacy,
      JSON.stringify({ session_id: 'sess-old', agent: 'claude', started_at: '2026-01-02T00:00:00Z', started_head: repo.head(), wrote_handoff: false }),
    );
    prompt(repo, 'end session', 'sess-old');
    expect(stop(repo, false, 'sess-old').out).toEqual({ decision: 'block', reason: expect.any(String) });
    expect(readdirSync(join(repo.dir, '.git/handoff')).sort()).toEqual(['sessions']);
    expect(JSON.parse(readFileSync(join(repo.dir, '.git/handoff/sessions/sess-old.json'), 'utf8'))).toMatchObject({
      session_id: 'sess-old',
      started_head: repo.head(),
      stop_blocked_for: expect.any(String),
    });
  });

  it('session-start: an env file it cannot write costs one stderr line, not the bookmark', () => {
    const repo = project();
    handoff(repo, ['write', '--summary', 'still shown']);
    const r = start(repo, 'sess-1', { CLAUDE_ENV_FILE: tempDir() }); // a folder, not a file
    expect(r.code).toBe(0);
    expect(r.out.hookSpecificOutput.additionalContext).toContain('still shown');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^git handoff: hook session-start --agent claude: cannot export the session id: /)]);
  });

  it('session-start: nothing at all before the first handoff', () => {
    const repo = project();
    expect(start(repo)).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('session-start in a session a relay started: read the prompt, then ack', () => {
    const repo = project();
    const r = start(repo, 'sess-r', { HANDOFF_RELAY_ID: '0123456789ab-1', HANDOFF_PROMPT_FILE: '/tmp/prompt.md' });
    const ctx: string = r.out.hookSpecificOutput.additionalContext;
    expect(ctx).toContain('this session was started by a relay (0123456789ab-1). Read the prompt in /tmp/prompt.md.');
    expect(ctx).toContain('`git handoff ack --status accepted`');
  });

  it('user-prompt-submit: session end -> write now and propose the ritual once; ambiguous -> ask; task and others -> nothing', () => {
    const repo = project();
    start(repo);
    const a = prompt(repo, 'отлично, завершаем сессию!');
    expect(a.code).toBe(0);
    const ctx: string = a.out.hookSpecificOutput.additionalContext;
    expect(a.out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(ctx).toContain('("завершаем сессию")');
    expect(ctx).toMatch(/Write the handoff for the next session now: run `git handoff write`/);
    expect(ctx).toMatch(/cursor\.next_step.*open_tracks.*guards.*memory_updates/);
    expect(ctx).toMatch(/propose, do not perform, the closing ritual/);
    const b = prompt(repo, 'end session').out.hookSpecificOutput.additionalContext;
    expect(b).toContain('already proposed in this session: do not propose it again');
    expect(b).not.toMatch(/propose, do not perform/);
    expect(prompt(repo, "let's wrap up").out.hookSpecificOutput.additionalContext).toMatch(
      /may end the session or only the current task.*"End the session, or just this task\?"/,
    );
    expect(prompt(repo, 'сворачиваемся с этой задачей').out.hookSpecificOutput.additionalContext).toContain('«Закрываем сессию или только таску?»');
    for (const text of ['закрываем эту таску', 'pause', 'отбой', 'fix the session end handler', 'add a test']) {
      expect(prompt(repo, text), text).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
  });

  it('stop: blocks once after a session-end phrase while no handoff was written; never when stop_hook_active', () => {
    const repo = project();
    start(repo);
    expect(stop(repo).stdout).toBe(''); // no session-end phrase yet
    prompt(repo, 'we are done for now');
    expect(stop(repo, true).stdout).toBe('');
    const blocked = stop(repo);
    expect(blocked.out).toEqual({
      decision: 'block',
      reason: expect.stringMatching(/no handoff was written in it\. Before stopping, write it: run `git handoff write`/),
    });
    expect(stop(repo).stdout).toBe(''); // once
    prompt(repo, 'end session');
    handoff(repo, ['write', '--summary', 'wrapped up']);
    expect(stop(repo).stdout).toBe(''); // written: nothing to block
  });

  it('pre-compact reminds when due (to the user: systemMessage); session-end records the session', () => {
    const repo = project();
    handoff(repo, ['write', '--summary', 'x']);
    start(repo);
    const quiet = hook(repo, 'claude', 'pre-compact', claudeInput(repo, 'PreCompact', { trigger: 'auto', custom_instructions: '' }));
    expect(quiet.stdout).toBe('');
    repo.commit('feat: y', { 'y.txt': 'y\n' });
    const due = hook(repo, 'claude', 'pre-compact', claudeInput(repo, 'PreCompact', { trigger: 'manual', custom_instructions: '' }));
    expect(due.out).toEqual({ systemMessage: expect.stringMatching(/a handoff is due \(commit [0-9a-f]{7} since the last one\)/) });
    expect(end(repo)).toMatchObject({ code: 0, stdout: '' });
    const state = JSON.parse(readFileSync(join(repo.dir, '.git/handoff/sessions/sess-1.json'), 'utf8'));
    expect(state).toMatchObject({
      session_id: 'sess-1',
      agent: 'claude',
      wrote_handoff: false,
      ended_at: expect.stringMatching(/Z$/),
      started_head: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
  });

  it('stays silent without the trigger line (deleting it is the off switch), outside a repository, and with HANDOFF_SKIP=1', () => {
    const repo = project();
    handoff(repo, ['write', '--summary', 'x']);
    expect(start(repo).out).not.toBeNull();
    repo.write('CLAUDE.md', '# Rules\n');
    expect(start(repo, 'sess-9')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(prompt(repo, 'завершаем сессию', 'sess-9').stdout).toBe('');
    const outside = tempDir();
    expect(
      handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input: JSON.stringify({ session_id: 'x', cwd: outside }), cwd: outside }),
    ).toMatchObject({ code: 0, stdout: '' });
    repo.write('CLAUDE.md', `${TRIGGER}\n`);
    expect(
      handoff(repo, ['hook', 'session-start', '--agent', 'claude'], {
        input: claudeInput(repo, 'SessionStart', { source: 'startup' }),
        env: { HANDOFF_SKIP: '1' },
      }),
    ).toMatchObject({ code: 0, stdout: '' });
  });

  it('never blocks the agent on bad input: exit 0, one line on stderr, nothing on stdout', () => {
    const repo = project();
    for (const [input, msg] of [
      ['not json', /hook input is not JSON/],
      ['', /no hook input on stdin/],
      ['[1,2]', /not a JSON object/],
    ] as const) {
      const r = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
    for (const args of [
      ['PreToolUse', '--agent', 'claude'],
      ['session-start', '--agent', 'cursor'],
    ]) {
      const r = handoff(repo, ['hook', ...args], { input: '{}' });
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    // an unreadable notes ref: still exit 0
    handoff(repo, ['write', '--summary', 'x']);
    repo.write('.git/refs/notes/handoff', '0123456789012345678901234567890123456789\n');
    const broken = start(repo, 'sess-broken');
    expect(broken.code).toBe(0);
    expect(broken.stdout).toBe('');
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('Codex CLI', () => {
  it('answers as Claude Code does, takes the events by their Codex names; write records the session from CODEX_THREAD_ID (Codex has no env file)', () => {
    const repo = project('AGENTS.md');
    handoff(repo, ['write', '--summary', 'codex side']);
    const base = { session_id: 'cx-1', transcript_path: null, cwd: repo.dir, model: 'gpt-5-codex', permission_mode: 'default' };
    const envFile = join(tempDir(), 'codex.env');
    const s = hook(repo, 'codex', 'SessionStart', JSON.stringify({ ...base, hook_event_name: 'SessionStart', source: 'startup' }), { CODEX_ENV_FILE: envFile });
    expect(s.out.hookSpecificOutput).toEqual({ hookEventName: 'SessionStart', additionalContext: expect.stringContaining('codex side') });
    // no such variable exists in Codex: nothing is written there
    expect(existsSync(envFile)).toBe(false);
    const p = hook(
      repo,
      'codex',
      'UserPromptSubmit',
      JSON.stringify({ ...base, turn_id: 't1', hook_event_name: 'UserPromptSubmit', prompt: 'wrap up session' }),
    );
    expect(p.out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const st = hook(
      repo,
      'codex',
      'Stop',
      JSON.stringify({ ...base, turn_id: 't1', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' }),
    );
    expect(st.out).toEqual({ decision: 'block', reason: expect.any(String) });
    // the trigger line lives in AGENTS.md for Codex; CLAUDE.md does not count
    expect(hook(repo, 'claude', 'session-start', claudeInput(repo, 'SessionStart', { source: 'startup' })).stdout).toBe('');
    // the thread id Codex puts in its shell commands' environment is the hooks' session_id,
    // also when another session started later in the same worktree
    hook(repo, 'codex', 'SessionStart', JSON.stringify({ ...base, session_id: 'cx-2', hook_event_name: 'SessionStart', source: 'startup' }));
    const w = handoff(repo, ['write', '--summary', 'from codex', '--json'], { env: { CODEX_THREAD_ID: 'cx-1' } });
    expect(w.json.handoff.session_id).toBe('cx-1');
  });
});

describe('Gemini CLI', () => {
  it('BeforeAgent plays UserPromptSubmit, AfterAgent plays Stop (decision deny), stdout is JSON only', () => {
    const repo = project('GEMINI.md');
    handoff(repo, ['write', '--summary', 'gemini side']);
    const base = { session_id: 'gm-1', transcript_path: '/t.json', cwd: repo.dir, timestamp: '2026-01-01T00:00:00Z' };
    const outs: string[] = [];
    const run = (event: string, extra: Record<string, unknown>) => {
      const r = hook(repo, 'gemini', event, JSON.stringify({ ...base, hook_event_name: event, ...extra }));
      expect(r.code).toBe(0);
      outs.push(r.stdout);
      return r;
    };
    expect(run('SessionStart', { source: 'startup' }).out.hookSpecificOutput).toEqual({
      hookEventName: 'SessionStart',
      additionalContext: expect.stringContaining('gemini side'),
    });
    expect(run('BeforeAgent', { prompt: '今天就到这里' }).out.hookSpecificOutput).toEqual({
      hookEventName: 'BeforeAgent',
      additionalContext: expect.stringContaining('("今天就到这里")'),
    });
    expect(run('AfterAgent', { prompt: '今天就到这里', prompt_response: 'ok', stop_hook_active: false }).out).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('git handoff write'),
    });
    expect(run('AfterAgent', { prompt: 'x', prompt_response: 'ok', stop_hook_active: true }).stdout).toBe('');
    run('PreCompress', { trigger: 'auto' });
    run('SessionEnd', { reason: 'exit' });
    for (const o of outs) if (o) expect(() => JSON.parse(o)).not.toThrow();
    expect(outs.every((o) => o === '' || o.trim().split('\n').length === 1)).toBe(true);
  });
});
