import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { purgeVersions, type PurgeResult } from '../app/purge.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'purge',
    summary: 'remove a leaked secret: replace a version with a tombstone and rewrite the history after it',
    description:
      "The only command that rewrites the handoff history. The version's note becomes a tombstone (in it and in every later commit that still carried it), the commits after it are replayed, and the reflog entries reaching the old commits are dropped. Other clones apply the purge on their next sync; a remote keeps the old history until 'git handoff sync --force <remote>', the exact command being printed.",
    positionals: [
      {
        name: 'version',
        describe:
          'the version to purge (id, unique prefix, or ~N), a notes commit whose message or tree entry names hold a secret, or a bookkeeping path (receipts/<id>.json, items/<provider>/<n>.json, policy/approved) whose leaked contents become tombstones; several may be given',
        variadic: true,
      },
    ],
    options: {
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ['git handoff purge 3f2a9c1 --dry-run', 'git handoff purge 3f2a9c1 && git handoff sync --force origin'],
  },

  async run(args, ctx) {
    const r = await withRepo(ctx.cwd, (repo) => purgeVersions(repo, args.positionals, Boolean(args.values['dry-run'])));
    if (ctx.json) return void ctx.io.json(purgeJson(r));
    ctx.io.out(visibleText(renderPurge(r)));
  },
};

export function purgeJson(r: PurgeResult) {
  return { ok: true, dry_run: r.dryRun, purged: r.purged, tip: r.tip, rewritten: r.rewritten, remotes: r.remotes };
}

export function renderPurge(r: PurgeResult): string {
  const lines: string[] = [];
  const verb = r.dryRun ? 'would replace' : 'replaced';
  for (const p of r.purged)
    lines.push(
      p.path
        ? `${verb} ${p.path} as notes commit ${p.version.slice(0, 12)} wrote it with a tombstone: ${p.replacement.slice(0, 12)}`
        : p.target === p.version
          ? `${verb} notes commit ${p.version.slice(0, 12)}, without the secret its message or a name in its tree held: ${p.replacement.slice(0, 12)}`
          : `${verb} version ${p.version.slice(0, 12)} (note of ${p.target.slice(0, 7)}) with a tombstone: ${p.replacement.slice(0, 12)}`,
    );
  lines.push(
    `${r.dryRun ? 'would rewrite' : 'rewrote'} ${r.rewritten} commit${r.rewritten === 1 ? '' : 's'} of refs/notes/handoff: ${r.tip.before.slice(0, 12)} -> ${r.tip.after.slice(0, 12)}`,
  );
  for (const rem of r.remotes) lines.push(`remote '${rem.remote}' still holds the old history; replace it with: ${rem.command}`);
  if (r.dryRun) lines.push('dry run: nothing was written');
  else {
    lines.push("other clones apply the purge on their next 'git handoff sync'");
    lines.push(`${r.remotes.length ? 'then ' : ''}'git gc --prune=now' removes the old objects from this repository`);
  }
  return `${lines.join('\n')}\n`;
}
