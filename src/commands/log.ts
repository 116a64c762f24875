import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { checkedSelection } from '../app/show.js';
import { isoUtc } from '../git/identity.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'log',
    summary: 'list handoff versions, newest first',
    description: 'By default the versions of the current branch (all versions when it has none); invalid notes are listed and marked.',
    options: {
      'max-count': { type: 'string', short: 'n', arg: 'N', describe: 'show at most N versions' },
      branch: { type: 'string', arg: 'name', describe: 'versions written on this branch' },
      all: { type: 'boolean', describe: 'versions of every branch' },
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const nRaw = str(args.values['max-count']);
    const max = nRaw === undefined ? Infinity : Number(nRaw);
    if (max !== Infinity && (!Number.isInteger(max) || max < 0)) throw new UsageError(`log: -n needs a whole number, not '${nRaw}'`);
    const repo = await Repo.discover(ctx.cwd);
    try {
      const store = new HandoffStore(repo);
      const { versions } = await store.select(await checkedSelection(repo, store, { branch: str(args.values.branch), all: Boolean(args.values.all) }));
      const rows = [];
      for await (const v of versions) {
        if (rows.length >= max) break;
        rows.push(v);
      }
      if (ctx.json) {
        ctx.io.json({
          ok: true,
          versions: rows.map((v) => ({
            version: v.id,
            target: v.target,
            date: typeof v.handoff.date === 'string' ? v.handoff.date : isoUtc(v.timestamp),
            valid: v.valid,
            session_id: v.handoff.session_id ?? null,
            status: v.handoff.status ?? null,
            summary: v.handoff.summary ?? null,
          })),
        });
        return;
      }
      const p = ctx.io.paint;
      for (const v of rows) {
        const date = (typeof v.handoff.date === 'string' ? v.handoff.date : isoUtc(v.timestamp)).replace('T', ' ').replace('Z', '');
        const head = `${p.warn(v.id.slice(0, 12))} ${p.dim(date)}`;
        if (!v.valid) {
          ctx.io.out(`${head} ${v.target.slice(0, 7)} (invalid: ${v.problems[0]})\n`);
          continue;
        }
        const summary = (v.handoff.summary ?? '').split('\n')[0];
        ctx.io.out(`${head} ${v.target.slice(0, 7)} ${v.branch ?? '-'} ${v.handoff.status ?? '-'} ${summary}\n`);
      }
    } finally {
      repo.close();
    }
  },
};
