import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { diffJson, diffText, diffVersions } from '../app/diff.js';
import { isHandoffError, TooFewVersions } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'diff',
    summary: 'show what changed between two versions, field by field (default: previous vs latest)',
    description:
      'By default the fields a person or agent wrote; --bookkeeping adds those the tool fills on every write. A change of session_id reads old → new: which session wrote the version.',
    positionals: [
      { name: 'OLD', describe: 'the older version (id, unique prefix or ~N; default ~1)', optional: true },
      { name: 'NEW', describe: 'the newer version (default: the latest)', optional: true },
    ],
    options: {
      branch: { type: 'string', arg: 'name', describe: 'count ~N among the versions of this branch' },
      all: { type: 'boolean', describe: 'count ~N among all versions' },
      bookkeeping: { type: 'boolean', describe: 'also the fields the tool fills on every write (head, head_tree, head_patch_id, date, recent_commits, ...)' },
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const [oldName, newName] = args.positionals;
    const req = {
      old: oldName,
      new: newName,
      branch: str(args.values.branch),
      all: Boolean(args.values.all),
      checkBranch: true,
      bookkeeping: Boolean(args.values.bookkeeping),
    };
    let d;
    try {
      d = await withRepo(ctx.cwd, (repo) => diffVersions(repo, req));
    } catch (e) {
      // like `git log -p` on a first commit, one version (or none) is no error: there is nothing to compare yet
      if (!isHandoffError(e, TooFewVersions)) throw e;
      const only = typeof e.data.only === 'string' ? e.data.only : null;
      if (ctx.json) return void ctx.io.json({ ok: true, old: null, new: only, changes: [] });
      return void ctx.io.out(
        only
          ? `nothing to compare yet: one version so far (${only.slice(0, 12)}); git handoff show prints it\n`
          : 'nothing to compare yet: no version so far\n',
      );
    }
    if (ctx.json) return void ctx.io.json(diffJson(d));
    ctx.io.out(await diffText(d, ctx.io.paint));
  },
};
