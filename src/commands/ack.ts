import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { ackRelay } from '../app/ack.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'ack',
    summary: 'acknowledge a relay from the session it started',
    description:
      "Run by the new session a relay started: the relay is HANDOFF_RELAY_ID (set in the tmux session). 'accepted' is refused, and recorded as failed, when the prompt is stale (a newer version exists).",
    options: {
      status: { type: 'string', arg: 'accepted|failed', describe: 'the answer (required)' },
      reason: { type: 'string', arg: 'text', describe: 'why (for failed)' },
      'relay-id': { type: 'string', arg: 'id', describe: 'the relay (default: $HANDOFF_RELAY_ID)' },
      json: JSON_OPTION,
    },
    examples: ['git handoff ack --status accepted', "git handoff ack --status failed --reason 'HEAD does not match the handoff'"],
  },

  async run(args, ctx) {
    const status = str(args.values.status);
    if (status !== 'accepted' && status !== 'failed') throw new UsageError("ack: --status must be 'accepted' or 'failed'");
    const relayId = str(args.values['relay-id']) ?? process.env.HANDOFF_RELAY_ID;
    if (!relayId) throw new UsageError('ack: no relay to acknowledge: HANDOFF_RELAY_ID is not set (pass --relay-id)');
    const r = await withRepo(ctx.cwd, (repo) => ackRelay(repo, { relayId, status, reason: str(args.values.reason) ?? null }));
    if (ctx.json) return void ctx.io.json({ ok: true, relay_id: r.relayId, version: r.version, status: r.status, reason: r.reason });
    ctx.io.out(`relay ${r.relayId}: ${r.status}${r.reason ? ` (${r.reason})` : ''}\n`);
  },
};
