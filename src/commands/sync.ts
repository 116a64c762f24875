import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { syncHandoffs, type SyncResult } from '../app/sync.js';
import { unscannedLine } from '../app/outgoing-secrets.js';
import { stderrProgress } from '../cli/progress.js';
import { visibleText } from '../core/visible-text.js';
import { divergedList, divergenceReport } from '../app/show-report.js';

export const command: CommandModule = {
  spec: {
    name: 'sync',
    summary: 'fetch, merge and push the handoff history through a git remote, losing no version',
    description:
      "Fetches the remote's refs/notes/handoff into refs/notes/remotes/<remote>/handoff, merges the two histories (where both sides changed the note of the same commit, the newer version wins and the other stays in history) and pushes with a compare-and-swap, retrying when the remote moved meanwhile. The default remote is the current branch's upstream remote, else origin. An unreachable or refusing remote exits 4 with the local history untouched.",
    positionals: [{ name: 'remote', describe: 'the remote to sync with', optional: true }],
    options: {
      force: { type: 'boolean', describe: "replace the remote's copy of versions purged here (the only force push git handoff makes)" },
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ['git handoff sync', 'git handoff sync upstream --dry-run'],
  },

  async run(args, ctx) {
    const req = { remote: args.positionals[0], dryRun: Boolean(args.values['dry-run']), force: Boolean(args.values.force) };
    const r = await withRepo(ctx.cwd, async (repo) => {
      const progress = stderrProgress();
      try {
        return await syncHandoffs(repo, { ...req, progress: (l) => progress.update(l) });
      } finally {
        progress.done();
      }
    });
    if (ctx.json) return void ctx.io.json(syncJson(r));
    ctx.io.out(visibleText(renderSync(r)));
  },
};

export function syncJson(r: SyncResult) {
  return {
    ok: true,
    remote: r.remote,
    action: r.action,
    dry_run: r.dryRun,
    needs_fetch: r.needsFetch,
    local: r.local,
    remote_tip: r.remoteTip,
    incoming: r.incoming,
    outgoing: r.outgoing,
    conflicts: r.conflicts,
    purged_locally: r.purgedLocally,
    forced: r.forced,
    attempts: r.attempts,
    ...(r.unscanned.length ? { unscanned: r.unscanned } : {}),
    // the current branch's heads after the sync, as show --json names them
    ...(r.divergence ? { latest: r.divergence.latest.id, diverged: divergedList(r.divergence.latest, r.divergence.diverged) } : {}),
  };
}

const short = (id: string | null) => (id ? id.slice(0, 12) : '(none)');
const versions = (n: number) => `${n} version${n === 1 ? '' : 's'}`;

export function renderSync(r: SyncResult): string {
  const lines: string[] = [];
  if (r.purgedLocally.length)
    lines.push(`${r.dryRun ? 'would apply' : 'applied'} ${r.purgedLocally.length} purge(s) recorded on ${r.remote}: ${r.purgedLocally.map(short).join(', ')}`);
  if (r.needsFetch) {
    lines.push(
      `dry run: would fetch ${short(r.remoteTip.before)} from ${r.remote} (not here yet), then ${r.action === 'merge' ? 'merge it with' : 'fast-forward'} the local history; nothing was written`,
    );
    return `${lines.join('\n')}\n`;
  }
  switch (r.action) {
    case 'up-to-date':
      lines.push(
        r.local.after
          ? `${r.remote} and this clone already hold the same handoff history (${short(r.local.after)})`
          : `neither ${r.remote} nor this clone has a handoff history yet`,
      );
      break;
    case 'push':
      lines.push(`${r.dryRun ? 'would push' : 'pushed'} ${versions(r.outgoing)} to ${r.remote}${r.forced ? ' (replacing its copy of purged versions)' : ''}`);
      break;
    case 'fast-forward':
      lines.push(`${r.dryRun ? 'would receive' : 'received'} ${versions(r.incoming)} from ${r.remote}`);
      break;
    case 'merge':
      lines.push(
        `${r.dryRun ? 'would merge' : 'merged'} ${versions(r.incoming)} from ${r.remote} with ${versions(r.outgoing)} from here${r.dryRun ? '' : ' and pushed the result'}`,
      );
      for (const c of r.conflicts) {
        const what = c.target ? `the note of ${c.target.slice(0, 7)}` : c.path;
        const carried = c.carried_receipts.length
          ? `, with the other side's receipt${c.carried_receipts.length === 1 ? '' : 's'} ${c.carried_receipts.join(', ')}`
          : '';
        lines.push(`  both sides changed ${what}: kept the newer version ${short(c.kept)}${carried}; ${short(c.dropped)} stays in the history`);
      }
      break;
  }
  if (r.unscanned.length) lines.push(unscannedLine(r.unscanned, r.dryRun));
  if (r.divergence) lines.push(...divergenceReport(r.divergence));
  if (r.forced && r.action !== 'push') lines.push(`${r.dryRun ? 'would replace' : 'replaced'} ${r.remote}'s copy of purged versions (forced push)`);
  if (r.dryRun) lines.push('dry run: nothing was written');
  return `${lines.join('\n')}\n`;
}
