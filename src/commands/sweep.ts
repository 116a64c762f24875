import type { CommandModule } from './types.js';
import { JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { sweepWorkTree } from '../app/sweep.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'sweep',
    summary: 'the fidelity sweep: which cadence/streaming/ topics to consolidate before the next handoff',
    description:
      "Reads the status: active files in cadence/streaming/. High fidelity, an explicitly closed topic (closing: true) or the current continuation (cadence/_ACTIVE.md, the latest handoff's continuation_refs) is consolidated even with one entry; any other topic is skipped with fewer than 2 entries or a newest entry under 10 minutes old. Record what you produced with 'git handoff write --produced <path>': a produced document named like a topic's file (docs/division.md for cadence/streaming/division.md) or naming its path marks the topic consolidated, and the sweep skips it until the topic gets a newer entry; 'status: consolidated' in the topic's front matter does so for good.",
    options: { json: JSON_OPTION },
  },

  async run(_args, ctx) {
    const r = await withRepo(ctx.cwd, (repo) => sweepWorkTree(repo, async (at) => (await import('../app/continuation-refs.js')).latestCadence(at)));
    if (ctx.json) return void ctx.io.json({ ok: true, topics: r.topics, hint: r.hint });
    const p = ctx.io.paint;
    // One write for the whole plan: thousands of topics are thousands of lines.
    let text = r.topics.length ? '' : 'no active topics in cadence/streaming/\n';
    const consolidate = p.warn('consolidate');
    const skip = p.dim('skip       ');
    for (const t of r.topics) {
      text += `${t.action === 'consolidate' ? consolidate : skip} ${visibleText(`${t.path} (${t.topic}; ${t.fidelity}; ${t.entries} ${t.entries === 1 ? 'entry' : 'entries'}): ${t.reason}`)}\n`;
    }
    if (r.then) text += `then: ${visibleText(r.then)}\n`;
    if (r.hint) text += `hint: ${visibleText(r.hint)}\n`;
    ctx.io.out(text);
  },
};
