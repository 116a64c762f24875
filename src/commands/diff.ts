import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { Repo } from '../git/repo.js';
import { HandoffStore, type ReadVersion } from '../git/handoff-store.js';
import { checkedSelection } from '../app/show.js';
import { isHandoffError, TooFewVersions, UnknownVersion } from '../errors.js';
import { movedByRewrite } from '../core/rewrite.js';

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
    const repo = await Repo.discover(ctx.cwd);
    try {
      const store = new HandoffStore(repo);
      const sel = await checkedSelection(repo, store, { branch: str(args.values.branch), all: Boolean(args.values.all) });
      const [oldName = '~1', newName = '~0'] = args.positionals;
      let oldV: ReadVersion;
      let newV: ReadVersion;
      try {
        [oldV, newV] = [await store.resolve(oldName, sel), await store.resolve(newName, sel)];
      } catch (e) {
        if (args.positionals.length === 0 && isHandoffError(e, UnknownVersion)) {
          throw new TooFewVersions('diff needs two versions; this selection has fewer');
        }
        throw e;
      }
      const { diffHandoffs, renderChanges } = await import('../core/version-diff.js');
      const changes = diffHandoffs(oldV.handoff, newV.handoff);
      // A version moved by a rewrite carries the same note: say so rather than "(no changes)".
      const moved = [oldV, newV].flatMap((v) => {
        const m = movedByRewrite(v.handoff, v.target);
        return m ? [{ version: v.id, ...m }] : [];
      });
      if (ctx.json) {
        ctx.io.json({ ok: true, old: oldV.id, new: newV.id, changes, ...(moved.length ? { moved } : {}) });
        return;
      }
      ctx.io.out(`${ctx.io.paint.heading(`diff ${oldV.id.slice(0, 12)}..${newV.id.slice(0, 12)}`)}\n`);
      for (const m of moved) ctx.io.out(`version ${m.version.slice(0, 12)} was moved from commit ${m.from.slice(0, 7)} to ${m.to.slice(0, 7)} by a rewrite (amend or rebase)\n`);
      if (moved.length && !changes.length) ctx.io.out(`(no changes to the content; the note moved from ${oldV.target.slice(0, 7)} to ${newV.target.slice(0, 7)})\n`);
      else ctx.io.out(renderChanges(changes) || '(no changes)\n');
    } finally {
      repo.close();
    }
  },
};
