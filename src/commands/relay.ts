import type { CommandContext, CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { DEFAULT_TIMEOUT_S, relayLoop, relayOnce, relayStatus } from '../app/relay.js';
import { UsageError } from '../errors.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'relay',
    summary: 'start the next session in tmux when a handoff asks for it, and wait for its ack',
    description:
      "When the latest version of this branch asks for a relay (write --relay, or handoff.relay.tasksPerSession) and was not relayed yet: take the version's lock, render the next-session prompt to a file, run CMD in a new tmux session (HANDOFF_PROMPT_FILE and HANDOFF_RELAY_ID set), and wait for 'git handoff ack'. Failed or timed out: exit 4, and that version waits for --retry. Without --once it checks every 5 s until stopped. 'relay status' lists the last relays.",
    positionals: [{ name: 'status', describe: "'status': show the last relays, acks and failures", optional: true }],
    options: {
      once: { type: 'boolean', describe: 'check once and exit' },
      'agent-cmd': { type: 'string', arg: 'CMD', describe: 'the command the new tmux session runs (default: handoff.relay.agentCmd)' },
      timeout: { type: 'string', arg: 'S', describe: `seconds to wait for the ack (default ${DEFAULT_TIMEOUT_S})` },
      retry: { type: 'boolean', describe: 'relay again a version whose relay failed or timed out' },
      'max-count': { type: 'string', short: 'n', arg: 'N', describe: 'status: show at most N relays (default 20)' },
      json: JSON_OPTION,
    },
    examples: [
      'git handoff relay --once --agent-cmd \'claude "$(cat "$HANDOFF_PROMPT_FILE")"\'',
      'git config handoff.relay.agentCmd "codex \\"$(cat \\"$HANDOFF_PROMPT_FILE\\")\\"" && git handoff relay',
      'git handoff relay status',
    ],
  },

  async run(args, ctx) {
    const v = args.values;
    const action = args.positionals[0];
    if (action !== undefined && action !== 'status') throw new UsageError(`relay: unknown action '${action}' (did you mean 'relay status'?)`);
    if (action === 'status') return status(ctx, str(v['max-count']));
    const r = await withRepo(ctx.cwd, async (repo) => {
      const timeoutS = v.timeout === undefined ? DEFAULT_TIMEOUT_S : Number(v.timeout);
      if (!Number.isFinite(timeoutS) || timeoutS <= 0) throw new UsageError(`relay: --timeout needs a number of seconds, not '${v.timeout}'`);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        const opts = { agentCmd: str(v['agent-cmd']), timeoutS, retry: Boolean(v.retry), log: (line: string) => ctx.io.err(line), signal: controller.signal };
        if (!v.once) return void (await relayLoop(repo, opts));
        return await relayOnce(repo, opts);
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
    if (!r) return;
    if (ctx.json)
      return void ctx.io.json(
        r.status === 'accepted'
          ? { ok: true, status: r.status, relay_id: r.relayId, session: r.session, version: r.version }
          : { ok: true, status: r.status, reason: r.why },
      );
    ctx.io.out(r.status === 'accepted' ? `relay ${r.relayId}: accepted by tmux session ${r.session}\n` : `nothing to relay: ${r.why}\n`);
  },
};

async function status(ctx: CommandContext, max: string | undefined) {
  const rows = await withRepo(ctx.cwd, (repo) => {
    const n = max === undefined ? 20 : Number(max);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`relay status: -n needs a whole number, not '${max}'`);
    return relayStatus(repo, n);
  });
  if (ctx.json) {
    return void ctx.io.json({
      ok: true,
      relays: rows.map((r) => ({
        relay_id: r.relay_id,
        version: r.version,
        branch: r.branch,
        status: r.status,
        reason: r.reason,
        session: r.session,
        prompt: r.prompt,
        started_at: r.started_at,
        acked_at: r.acked_at,
        finished_at: r.finished_at,
      })),
    });
  }
  if (!rows.length) return void ctx.io.out('no relays yet\n');
  for (const r of rows) ctx.io.out(visibleText(`${r.relay_id}  ${r.status.padEnd(11)} ${r.session}  ${r.started_at}${r.reason ? `  ${r.reason}` : ''}\n`));
}
