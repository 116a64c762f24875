// The agent hooks of every turn, each exactly as `git handoff init --agent` registered it
// (read back from the agent's settings file and run with `sh -c`, as the agents run their
// hooks), against `node -e 0` in one interleaved run (issue 28): an ordinary prompt's hook,
// an ordinary stop's hook (both answered by git-handoff-hook's shell, targets <= 0.3) and a
// session-end prompt's hook (Node), this last one also against the form earlier versions
// registered (`git handoff hook ...`), target within 10%.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const AGENTS = [
  { name: 'claude', title: 'Claude Code', file: '.claude/settings.local.json', prompt: 'UserPromptSubmit', stop: 'Stop', start: 'SessionStart' },
  { name: 'gemini', title: 'Gemini CLI', file: '.gemini/settings.json', prompt: 'BeforeAgent', stop: 'AfterAgent', start: 'SessionStart' },
];

export function benchAgentHooks({ work, env, run, interleave, row, node0 }) {
  const dir = join(work, 'agent-hooks');
  mkdirSync(dir);
  const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  git('init', '-q', '--initial-branch=main');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git('add', 'README.md');
  git('commit', '-q', '-m', 'feat: start');
  run('git', ['handoff', 'write', '--summary', 'the parser is half done', '--next-step', 'wire the CLI'], { cwd: dir });
  run('git', ['handoff', 'init', '--agent', AGENTS.map((a) => a.name).join(',')], { cwd: dir });
  for (const a of AGENTS) {
    const settings = JSON.parse(readFileSync(join(dir, a.file), 'utf8'));
    const command = (native) => settings.hooks[native][0].hooks[0].command;
    const sh = (cmd, input) => () => run('sh', ['-c', cmd], { cwd: dir, input: JSON.stringify(input) });
    const base = { session_id: `bench-${a.name}`, transcript_path: `/tmp/bench-${a.name}.jsonl`, cwd: dir };
    sh(command(a.start), { ...base, hook_event_name: a.start, source: 'startup' })();
    const ordinary = { ...base, hook_event_name: a.prompt, prompt: 'refactor the parser so that empty rows are skipped, then run the tests' };
    const stop = { ...base, hook_event_name: a.stop, stop_hook_active: false };
    // another session: its end requests must not make the ordinary stops above Node's
    const ending = { ...base, session_id: `bench-${a.name}-ending`, hook_event_name: a.prompt, prompt: "that's all for today, let's wrap up the session" };
    const old = (native) => command(native).replace(/^git-handoff-hook /, 'git handoff hook ');
    const [p, s, e, eOld, pOld, sOld, n] = interleave([
      sh(command(a.prompt), ordinary),
      sh(command(a.stop), stop),
      sh(command(a.prompt), ending),
      sh(old(a.prompt), ending),
      sh(old(a.prompt), ordinary),
      sh(old(a.stop), stop),
      node0,
    ]);
    const what = (kind, native) => `${a.title} ${native} hook, ${kind} (as init registers it)`;
    row(what('an ordinary prompt', a.prompt), 'one repository', p, n, 'node -e 0', 0.3);
    row(what('an ordinary stop', a.stop), 'one repository', s, n, 'node -e 0', 0.3);
    row(what('a session-end prompt', a.prompt), 'one repository', e, n, 'node -e 0', null);
    row(
      `${a.title} ${a.prompt} hook, a session-end prompt: git-handoff-hook vs git handoff hook`,
      'one repository',
      e,
      eOld,
      'the form earlier versions registered',
      1.1,
    );
    row(`${a.title} ${a.prompt} hook, an ordinary prompt, the form earlier versions registered`, 'one repository', pOld, n, 'node -e 0', null);
    row(`${a.title} ${a.stop} hook, an ordinary stop, the form earlier versions registered`, 'one repository', sOld, n, 'node -e 0', null);
  }
}
