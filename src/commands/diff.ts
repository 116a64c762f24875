import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { Repo } from '../git/repo.js';
import { HandoffStore, type ReadVersion } from '../git/handoff-store.js';
import { checkedSelection } from '../app/show.js';
import { Refused } from '../errors.js';

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
        if (args.positionals.length === 0 && /no version/.test((e as Error).message)) {
          throw new Refused('diff needs two versions; this selection has fewer');
        }
        throw e;
      }
      const { diffHandoffs, renderChanges } = await import('../core/version-diff.js');
      const changes = diffHandoffs(oldV.handoff, newV.handoff);
      if (ctx.json) {
        ctx.io.json({ ok: true, old: oldV.id, new: newV.id, changes });
        return;
      }
      ctx.io.out(`${ctx.io.paint.heading(`diff ${oldV.id.slice(0, 12)}..${newV.id.slice(0, 12)}`)}\n`);
      ctx.io.out(renderChanges(changes) || '(no changes)\n');
    } finally {
      repo.close();
    }
  },
};
