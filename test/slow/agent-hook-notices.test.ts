/**
 * What the session-start hook puts in front of an agent is what `git handoff show` tells a
 * person: each notice's situation is set up in a real repository, the installed CLI's hook
 * answers in three agents' envelopes (Claude Code, Gemini CLI, Cursor), and the bookmark in
 * each is compared with `show`'s output, text for text.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { STALE_LINE, divergedSessions, freshClone, movedByAmend, onAnotherBranch, remoteAhead, skippedStaleDue } from '../helpers/notice-situations.js';

const TRIGGER = 'session handoff: read on start, write on end';

/** Each agent's session-start input, and where its answer carries the model's context. */
const AGENTS = {
  claude: {
    file: 'CLAUDE.md',
    input: (repo: TestRepo, id: string) => ({
      session_id: id,
      transcript_path: '/tmp/t.jsonl',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
    context(out: any): string {
      expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      return out.hookSpecificOutput.additionalContext;
    },
  },
  gemini: {
    file: 'GEMINI.md',
    input: (repo: TestRepo, id: string) => ({
      session_id: id,
      transcript_path: '/tmp/g.json',
      cwd: repo.dir,
      hook_event_name: 'SessionStart',
      source: 'startup',
    }),
    context(out: any): string {
      expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
      expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
      return out.hookSpecificOutput.additionalContext;
    },
  },
  cursor: {
    file: 'AGENTS.md',
    input: (repo: TestRepo, id: string) => ({
      conversation_id: id,
      session_id: id,
      generation_id: 'g1',
      model: 'x',
      cursor_version: '2.1.0',
      workspace_roots: [repo.dir],
      hook_event_name: 'sessionStart',
      is_background_agent: false,
      composer_mode: 'agent',
    }),
    context(out: any): string {
      expect(Object.keys(out)).toEqual(['additional_context']);
      return out.additional_context;
    },
  },
};

interface Started {
  /** `show`'s notices as the CLI printed them */
  notices: string[];
  /** the context each agent's hook gave */
  contexts: string[];
  cli: { stdout: string; stderr: string };
}

const lines = (s: string) => s.split('\n').filter((l) => l !== '');
let sessions = 0;

/**
 * Runs each agent's session-start hook and `git handoff show` in the same state; every
 * hook's context must hold show's bookmark (or, with nothing to show, its notices) as is.
 */
function start(repo: TestRepo): Started {
  const contexts: string[] = [];
  for (const [name, a] of Object.entries(AGENTS)) {
    // the opt-in line, in the agent's instruction file (untracked: show does not look at it)
    repo.write(a.file, `# Rules\n\n${TRIGGER}\n`);
    const input = JSON.stringify(a.input(repo, `${name}-${++sessions}`));
    const r = handoff(repo, ['hook', 'session-start', '--agent', name], { input });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout, `${name} said nothing`).not.toBe('');
    contexts.push(a.context(JSON.parse(r.stdout)));
  }
  const cli = handoff(repo, ['show']);
  expect(cli.code, cli.stderr).toBe(0);
  let notices: string[];
  if (cli.stdout) {
    expect(cli.stderr).toBe('');
    const shown = cli.stdout.split('\n');
    notices = shown.slice(
      0,
      shown.findIndex((l) => l.startsWith('handoff ')),
    );
    for (const c of contexts) {
      // the bookmark as show prints it, notices first, set apart by blank lines
      expect(c).toContain(`\n\n${cli.stdout.replace(/\n+$/, '')}\n\n`);
      expect(lines(cli.stdout).length).toBeLessThanOrEqual(30);
      if (notices.length) expect(c).toContain(`the bookmark's first ${notices.length === 1 ? 'line is a notice' : `${notices.length} lines are notices`}`);
    }
  } else {
    // nothing to show: show prints its notices alone (stderr); the hook gives them alone too
    notices = lines(cli.stderr);
    expect(notices.length).toBeGreaterThan(0);
    for (const c of contexts) {
      expect(c).toContain(`\n\n${notices.join('\n')}\n\n`);
      expect(c).not.toContain("the previous session's handoff");
    }
  }
  return { notices, contexts, cli };
}

describe('the session-start hook gives the notices git handoff show prints', () => {
  it('skipped invalid versions, stale, and a handoff due', () => {
    const { repo, due: c2 } = skippedStaleDue();
    const s = start(repo);
    expect(s.notices[0]).toMatch(/^warning: skipped version [0-9a-f]{12}: not a valid handoff \(summary: must be a string, not a list\)$/);
    expect(s.notices).toContainEqual(expect.stringMatching(STALE_LINE));
    expect(s.notices.at(-1)).toBe(`a handoff is due: commit ${c2.slice(0, 7)} was made since this one; run 'git handoff write'`);
    for (const c of s.contexts) expect(c).toContain('the parser is half done');
  });

  it('no version on this branch: the newest one, and where it is from', () => {
    const s = start(onAnotherBranch());
    expect(s.notices[0]).toBe('no handoff on branch feature yet; showing the newest one (from main)');
  });

  it('two sessions diverged', () => {
    const { repo, earlier } = divergedSessions();
    const s = start(repo);
    expect(s.notices).toContainEqual(expect.stringMatching(new RegExp(`^two sessions diverged: version ${earlier.slice(0, 12)} \\(`)));
    for (const c of s.contexts) expect(c).toContain('a on its own line');
  });

  it('a version moved by a rewrite', () => {
    const { repo, before, after } = movedByAmend();
    const s = start(repo);
    expect(s.notices).toContainEqual(
      expect.stringMatching(new RegExp(`^moved by a rewrite: this handoff was written at commit ${before.slice(0, 7)} and now sits on ${after.slice(0, 7)}`)),
    );
  });

  it('the fetched remote history holds versions this clone lacks', () => {
    const s = start(remoteAhead());
    expect(s.notices).toContain("origin has 2 handoff versions this clone lacks; run 'git handoff sync origin'");
  });

  it('a fresh clone, with nothing to show yet, says how handoffs travel', () => {
    const s = start(freshClone());
    expect(s.notices).toEqual([
      "no handoff in this clone yet: handoffs travel separately from the code (git clone and fetch do not bring refs/notes/handoff); get them with 'git handoff sync origin'",
    ]);
    for (const c of s.contexts)
      expect(c.split('\n')[0]).toBe(
        'git handoff: no handoff to show yet. `git handoff show` says what follows: tell the user, and ask before running anything it suggests.',
      );
  });
});
