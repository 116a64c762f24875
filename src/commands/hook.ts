import type { CommandModule } from './types.js';
import { str } from './types.js';
import type { HookHandler } from '../app/hooks/types.js';
import { UsageError } from '../errors.js';

/**
 * Git hook events, one line each; a module exports `run: HookHandler`. Add an event with one
 * entry (e.g. sync: `'pre-push': () => import('../app/hooks/pre-push.js')`).
 */
export const GIT_HOOK_EVENTS: Record<string, () => Promise<{ run: HookHandler }>> = {
  'post-commit': () => import('../app/hooks/post-commit.js'),
  'prepare-commit-msg': () => import('../app/hooks/prepare-commit-msg.js'),
  'post-rewrite': () => import('../app/hooks/post-rewrite.js'),
};

/**
 * Agent hook events (`hook <event> --agent claude|codex|gemini`), by agent; filled in by the
 * agent integrations.
 */
export const AGENT_HOOK_EVENTS: Record<string, Record<string, () => Promise<{ run: HookHandler }>>> = {};

export const command: CommandModule = {
  spec: {
    name: 'hook',
    summary: 'entry point for git hooks and agent hooks (called by the installed hooks)',
    description:
      "Git events: post-commit, prepare-commit-msg, post-rewrite. A hook never breaks the user's git: an internal error is one line on stderr and exit 0; only a strict fidelity sweep (handoff.sweep.strict) stops a commit (exit 1). HANDOFF_SKIP=1 turns every hook off.",
    positionals: [
      { name: 'event', describe: 'the hook event, e.g. post-commit' },
      { name: 'args', describe: 'the arguments git passed to the hook', optional: true, variadic: true },
    ],
    options: {
      agent: { type: 'string', arg: 'name', describe: 'an agent hook event of this agent (claude, codex, gemini)' },
    },
  },

  async run(args, ctx) {
    const [event, ...rest] = args.positionals;
    const agent = str(args.values.agent);
    const table = agent === undefined ? GIT_HOOK_EVENTS : AGENT_HOOK_EVENTS[agent];
    if (!table) throw new UsageError(`hook: no agent hooks for '${agent}'`);
    const load = table[event];
    if (!load) {
      const known = Object.keys(table).join(', ');
      throw new UsageError(`hook: unknown ${agent ? `${agent} ` : ''}event '${event}'${known ? ` (known: ${known})` : ''}`);
    }
    if (process.env.HANDOFF_SKIP === '1') return 0;
    try {
      const { run } = await load();
      return await run({ io: ctx.io, cwd: ctx.cwd, args: rest, stdin: readAll });
    } catch (e) {
      // Never in the way: the commit stands; say what went wrong in one line.
      ctx.io.err(`git-handoff: ${event} hook: ${((e as Error)?.message ?? String(e)).split('\n')[0]}`);
      if (process.env.HANDOFF_DEBUG && e instanceof Error && e.stack) ctx.io.err(e.stack);
      return 0;
    }
  },
};

async function readAll(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
