import type { CommandContext, CommandModule } from './types.js';
import { str } from './types.js';
import type { HookHandler } from '../app/hooks/types.js';
import { UntrustedRepository, UsageError, isHandoffError } from '../errors.js';
import { readStdin, readStdinBytes } from '../cli/io.js';
import { startHookBudget } from '../app/hook-budget.js';

/**
 * Git hook events, one line each; a module exports `run: HookHandler`. Add an event with one
 * entry (e.g. sync: `'pre-push': () => import('../app/hooks/pre-push.js')`).
 */
export const GIT_HOOK_EVENTS: Record<string, () => Promise<{ run: HookHandler }>> = {
  'post-commit': () => import('../app/hooks/post-commit.js'),
  'prepare-commit-msg': () => import('../app/hooks/prepare-commit-msg.js'),
  'post-rewrite': () => import('../app/hooks/post-rewrite.js'),
  'pre-push': () => import('../app/hooks/pre-push.js'),
  'post-merge': () => import('../app/hooks/post-merge.js'),
  'post-checkout': () => import('../app/hooks/post-checkout.js'),
  // run by our forwarders when the tracked core.hooksPath folder gained or lost a hook
  forwarders: () => import('../app/hooks/forwarders.js'),
};

/**
 * Agent hook events (`hook <event> --agent NAME`: claude, codex, gemini, cursor, copilot, opencode, droid) go to app/agent-hook.ts,
 * which reads the agent's JSON, answers in that agent's format and never blocks the agent:
 * whatever happens (an unknown event, bad input, an internal error) the exit code is 0.
 */
async function runAgentHook(agent: string, event: string, ctx: CommandContext): Promise<number> {
  startHookBudget();
  try {
    const { runAgentHook: run } = await import('../app/agent-hook.js');
    const input = await readStdin(ctx.io);
    const r = await run({ agent, event, stdin: input ? input.toString('utf8') : '', cwd: ctx.cwd, env: process.env });
    if (r.stdout) ctx.io.out(r.stdout);
    for (const line of r.stderr) ctx.io.err(line);
  } catch (e) {
    ctx.io.err(`git handoff: hook ${event} --agent ${agent}: ${((e as Error)?.message ?? String(e)).split('\n')[0]}`);
  }
  return 0;
}

export const command: CommandModule = {
  spec: {
    name: 'hook',
    summary: 'entry point for git hooks and agent hooks (called by the installed hooks)',
    description:
      "Git events: post-commit, prepare-commit-msg, post-rewrite, post-merge and post-checkout (a squash or rebase merge pulled from the forge: handoffs follow their commits), pre-push (init --sync), forwarders (run by the forwarders to a tracked core.hooksPath folder when a checkout or pull brought or took one of its hooks). Agent events (with --agent claude|codex|gemini|cursor|copilot|opencode|droid): session-start, user-prompt-submit, pre-compact, stop, session-end, or the agent's own names (SessionStart, BeforeAgent, AfterAgent, ...); the agent's JSON on stdin, its answer on stdout, always exit 0. A hook never breaks the user's git: an internal error is one line on stderr and exit 0; only a strict fidelity sweep (handoff.sweep.strict) stops a commit (exit 1). HANDOFF_SKIP=1 turns every hook off.",
    positionals: [
      { name: 'event', describe: 'the hook event, e.g. post-commit' },
      { name: 'args', describe: 'the arguments git passed to the hook', optional: true, variadic: true },
    ],
    options: {
      agent: { type: 'string', arg: 'name', describe: 'an agent hook event of this agent (claude, codex, gemini, cursor, copilot, opencode, droid)' },
    },
  },

  async run(args, ctx) {
    const [event, ...rest] = args.positionals;
    const agent = str(args.values.agent);
    if (agent !== undefined) return runAgentHook(agent, event, ctx);
    const load = GIT_HOOK_EVENTS[event];
    if (!load) throw new UsageError(`hook: unknown event '${event}' (known: ${Object.keys(GIT_HOOK_EVENTS).join(', ')})`);
    if (process.env.HANDOFF_SKIP === '1') return 0;
    // Within the hooks' time budget whatever a remote sent (pre-push keeps its own, post-rewrite
    // carries the notes of rewritten commits: not optional work to skip).
    if (event !== 'pre-push' && event !== 'post-rewrite') startHookBudget();
    try {
      const { run } = await load();
      return await run({ io: ctx.io, cwd: ctx.cwd, args: rest, stdin: async () => (await readStdinBytes(ctx.io))?.toString('utf8') ?? '' });
    } catch (e) {
      // A repository git refuses is none of ours: silent, as if git-handoff were not installed.
      if (isHandoffError(e, UntrustedRepository)) return 0;
      // Never in the way: the commit stands; say what went wrong in one line.
      ctx.io.err(`git-handoff: ${event} hook: ${((e as Error)?.message ?? String(e)).split('\n')[0]}`);
      const stack = (e as { stack?: unknown } | null)?.stack;
      if (process.env.HANDOFF_DEBUG && typeof stack === 'string') ctx.io.err(stack);
      return 0;
    }
  },
};
