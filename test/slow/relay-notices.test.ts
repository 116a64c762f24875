/**
 * What the relay hands the next session is what `git handoff show` tells a person: each
 * notice's situation is set up in a real repository, the installed CLI relays its latest
 * version to a stand-in agent in a real tmux (a private server, TMUX_TMPDIR) that keeps the
 * prompt it was given and acks, and the prompt's handoff is compared with `show`'s output,
 * text for text. The relay only relays a version of this branch that asks for it, so the
 * other branch's fallback and the fresh clone's line never reach a prompt. A rewrite's line
 * does: the version that moved the note (git's copy, or the post-rewrite hook's) asks as the
 * version it was moved from (src/app/relay-request.ts), and once acked is not asked again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { writeVersion } from '../helpers/fleet.js';
import { STALE_LINE, divergedSessions, remoteAhead, skippedStaleDue } from '../helpers/notice-situations.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';

const tmuxDir = tempDir('handoff-tmux-');
const env = { TMUX_TMPDIR: tmuxDir };
const tmux = (...args: string[]) => spawnSync('tmux', args, { env: { ...isolatedEnv(), PATH: cliPath(), ...env }, encoding: 'utf8', timeout: 10_000 });

const agentDir = tempDir('handoff-agent-');
const AGENT = join(agentDir, 'agent.sh');

beforeAll(() => {
  const bin = join(inject('binDir'), 'git-handoff');
  // The stand-in agent: keeps the prompt it was given, then accepts.
  writeFileSync(AGENT, `#!/bin/sh\ncat "$HANDOFF_PROMPT_FILE" > "$1.prompt"\n"${bin}" ack --status accepted > "$1.ack" 2>&1\n`);
  chmodSync(AGENT, 0o755);
});

afterAll(() => {
  // every session the relays started, and the server
  tmux('kill-server');
});

let relays = 0;

interface Relayed {
  /** the prompt the new session was given */
  prompt: string;
  /** `show`'s notices as the CLI printed them, before the bookmark's heading */
  notices: string[];
  cli: { stdout: string; stderr: string };
}

/**
 * Relays the latest version (which asks for it) once, bounded by the relay's own timeout,
 * and runs `git handoff show` in the same state: the prompt's handoff must be show's
 * bookmark as is, notices first.
 */
function relayed(repo: TestRepo): Relayed {
  const out = join(agentDir, `r${++relays}`);
  repo.git('config', 'handoff.relay.sessionPrefix', `n${relays}-${Math.random().toString(36).slice(2, 8)}`);
  const r = handoff(repo, ['relay', '--once', '--json', '--timeout', '30', '--agent-cmd', `'${AGENT}' '${out}'`], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.json).toMatchObject({ ok: true, status: 'accepted' });
  const prompt = readFileSync(`${out}.prompt`, 'utf8');
  expect(readFileSync(`${out}.ack`, 'utf8')).toContain(`relay ${r.json.relay_id}: accepted`);

  const cli = handoff(repo, ['show']);
  expect(cli.code, cli.stderr).toBe(0);
  expect(cli.stderr).toBe('');
  const shown = cli.stdout.split('\n');
  const notices = shown.slice(
    0,
    shown.findIndex((l) => l.startsWith('handoff ')),
  );
  // no state file, so no tasks: the handoff section ends the prompt
  const at = prompt.indexOf('\n## Handoff\n\n');
  expect(at).toBeGreaterThan(0);
  expect(prompt.slice(at + '\n## Handoff\n\n'.length)).toBe(cli.stdout);
  expect(shown.filter((l) => l !== '').length).toBeLessThanOrEqual(30);
  if (notices.length)
    expect(prompt).toContain(
      `The handoff's first ${notices.length === 1 ? 'line is a notice' : `${notices.length} lines are notices`} from \`git handoff show\``,
    );
  return { prompt, notices, cli };
}

describe('the relay prompt gives the notices git handoff show prints', () => {
  it('skipped invalid versions, stale, and a handoff due', () => {
    const { repo, due: c2 } = skippedStaleDue(true);
    const s = relayed(repo);
    expect(s.notices[0]).toMatch(/^warning: skipped version [0-9a-f]{12}: not a valid handoff \(summary: must be a string, not a list\)$/);
    expect(s.notices).toContainEqual(expect.stringMatching(STALE_LINE));
    expect(s.notices.at(-1)).toBe(`a handoff is due: commit ${c2.slice(0, 7)} was made since this one; run 'git handoff write'`);
    expect(s.prompt).toContain('the parser is half done');
  });

  it('two sessions diverged: the head another clone wrote is not relayed on its word', () => {
    // the latest here is the other clone's request, fetched by sync: relay acts only on the
    // current user's own requests (issue 23), so it stays idle and says why
    const { repo } = divergedSessions(true);
    const r = handoff(repo, ['relay', '--once', '--json', '--timeout', '5', '--agent-cmd', 'false'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, status: 'idle', reason: expect.stringContaining('was not written by the current user') });
  });

  it("two sessions of this clone diverged: the prompt names the latest and says so, keeping the other session's question", () => {
    // Two agent sessions start from one version; each writes a whole document, so each
    // continues what it was shown (issue 22 point 4): two heads. The later one asks for the relay.
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    repo.git('config', 'handoff.staleDays', '100000');
    repo.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    const base = writeVersion(repo, 'both sessions start here');
    for (const id of ['session-one', 'session-two']) {
      const r = handoff(repo, ['hook', 'session-start', '--agent', 'claude'], {
        input: JSON.stringify({ session_id: id, cwd: repo.dir, hook_event_name: 'SessionStart', source: 'startup' }),
      });
      expect(r.code, r.stderr).toBe(0);
    }
    const whole = (id: string, summary: string, extra: string[], body = '') => {
      const r = handoff(repo, ['write', '--json', ...extra], { input: `status: active\nsummary: ${summary}\n${body}`, env: { HANDOFF_SESSION_ID: id } });
      expect(r.code, r.stderr).toBe(0);
      expect(handoff(repo, ['show', '--json', '--version', r.json.version]).json.continues, `${id} continues what it was shown`).toEqual([base]);
      return r.json.version as string;
    };
    const other = whole('session-one', 'one went left', [], 'ask_user:\n  - Left or right?\n');
    const latest = whole('session-two', 'two went right', ['--relay']);
    const show = handoff(repo, ['show', '--json']).json;
    expect(show.version).toBe(latest);
    expect(show.diverged).toEqual([expect.objectContaining({ version: other })]);

    const s = relayed(repo);
    expect(s.prompt).toContain(`handoff ${latest.slice(0, 12)}`);
    expect(s.notices).toContainEqual(expect.stringMatching(new RegExp(`^two sessions diverged: version ${other.slice(0, 12)} \\(`)));
    expect(s.prompt).toContain(`git handoff write --continue ${latest.slice(0, 12)},${other.slice(0, 12)}`);
    expect(s.prompt).toContain('Left or right?');
  });

  it('the fetched remote history holds versions this clone lacks', () => {
    const s = relayed(remoteAhead(true));
    expect(s.notices).toContain("origin has 2 handoff versions this clone lacks; run 'git handoff sync origin'");
    expect(s.prompt).toContain('b first');
  });

  for (const [mover, how] of [
    ['git', 'amend'],
    ['the post-rewrite hook', 'rebase'],
  ] as const)
    it(`${how === 'amend' ? 'an amend' : 'a rebase'} moved the note (${mover}): the relay runs, the prompt says it moved, and once acked it is not asked again`, () => {
      const repo = TestRepo.init();
      repo.commit('chore: start', { 'README.md': 'start\n' });
      repo.git('config', 'handoff.staleDays', '100000');
      expect(handoff(repo, ['init']).code).toBe(0);
      if (mover !== 'git') repo.git('config', '--unset-all', 'notes.rewriteRef');
      const git = (...args: string[]) => {
        const r = gitWithHooks(repo, args);
        expect(r.code, r.stderr).toBe(0);
      };
      if (how === 'rebase') repo.git('checkout', '-q', '-b', 'topic');
      const written = commitWithHooks(repo, 'feat: one', { 'a.txt': '1\n' }).head;
      writeVersion(repo, 'asked for a relay, then rewritten', ['--relay']);
      if (how === 'amend') git('commit', '-q', '--amend', '--allow-empty', '-m', 'feat: one, amended');
      else {
        repo.git('checkout', '-q', 'main');
        repo.commit('feat: main moves', { 'm.txt': 'm\n' });
        repo.git('checkout', '-q', 'topic');
        git('rebase', '-q', 'main');
      }
      const s = relayed(repo);
      expect(s.notices).toEqual([
        `moved by a rewrite: this handoff was written at commit ${written.slice(0, 7)} and now sits on ${repo.head().slice(0, 7)} (amend or rebase); its head and recent commits are from before the rewrite`,
      ]);
      expect(s.prompt).toContain('asked for a relay, then rewritten');
      // acked: neither this version nor a further move of its note asks again (the agent would fail)
      const again = () => handoff(repo, ['relay', '--once', '--json', '--timeout', '5', '--agent-cmd', 'false'], { env });
      expect(again().json).toMatchObject({ ok: true, status: 'skipped', reason: expect.stringContaining('was already relayed') });
      git('commit', '-q', '--amend', '--allow-empty', '-m', 'feat: one, amended again');
      expect(again().json).toMatchObject({ ok: true, status: 'skipped', reason: expect.stringContaining('was already relayed') });
      // a write since ends it
      writeVersion(repo, 'carried on');
      expect(again().json).toMatchObject({ ok: true, status: 'idle', reason: expect.stringContaining('does not ask for a relay') });
    });

  it('no notice: the prompt holds the bookmark alone, and says nothing of notices', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    repo.git('config', 'handoff.staleDays', '100000');
    writeVersion(repo, 'all in order', ['--relay']);
    const s = relayed(repo);
    expect(s.notices).toEqual([]);
    expect(s.prompt).not.toMatch(/notices? from `git handoff show`/);
  });
});
