import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { diffVersions } from '../app/diff.js';

export const command: CommandModule = {
  spec: {
    name: 'diff',
    summary: 'show what changed between two versions, field by field (default: previous vs latest)',
    positionals: [
      { name: 'OLD', describe: 'the older version (id, unique prefix or ~N; default ~1)', optional: true },
      { name: 'NEW', describe: 'the newer version (default: the latest)', optional: true },
    ],
    options: {
      branch: { type: 'string', arg: 'name', describe: 'count ~N among the versions of this branch' },
      all: { type: 'boolean', describe: 'count ~N among all versions' },
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const [oldName, newName] = args.positionals;
    const req = { old: oldName, new: newName, branch: str(args.values.branch), all: Boolean(args.values.all), checkBranch: true };
    await withRepo(ctx.cwd, async (repo) => {
      const d = await diffVersions(repo, req);
      const { changes, moved } = d;
      if (ctx.json) return void ctx.io.json({ ok: true, old: d.old.id, new: d.new.id, changes, ...(moved.length ? { moved } : {}) });
      const { renderChanges } = await import('../core/version-diff.js');
      ctx.io.out(`${ctx.io.paint.heading(`diff ${d.old.id.slice(0, 12)}..${d.new.id.slice(0, 12)}`)}\n`);
      for (const m of moved)
        ctx.io.out(`version ${m.version.slice(0, 12)} was moved from commit ${m.from.slice(0, 7)} to ${m.to.slice(0, 7)} by a rewrite (amend or rebase)\n`);
      // A version moved by a rewrite carries the same note: say so rather than "(no changes)".
      if (moved.length && !changes.length)
        ctx.io.out(`(no changes to the content; the note moved from ${d.old.target.slice(0, 7)} to ${d.new.target.slice(0, 7)})\n`);
      else ctx.io.out(renderChanges(changes) || '(no changes)\n');
    });
  },
};
