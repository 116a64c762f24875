import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { groupHits, groupNote, searchHandoffs, searchJson, type SearchOrder } from '../app/search.js';
import { UsageError } from '../errors.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'search',
    summary: 'full-text search over every handoff version on every branch',
    description:
      'Every word of the query must occur in a version (any field: text, lists, unknown fields), case-insensitive; a word also finds longer words that contain it, Russian words match their inflections and Chinese text matches without spaces. Newest first, or by relevance. Invalid notes are skipped and counted. A cache of the searchable text is kept in <git-dir>/handoff/search-index.jsonl.',
    positionals: [{ name: 'QUERY', describe: 'the words to look for', variadic: true }],
    options: {
      branch: { type: 'string', arg: 'name', describe: 'only versions written on this branch' },
      since: {
        type: 'string',
        arg: 'date|age',
        describe: 'only versions from this date on, as git log --since takes it (yesterday, 2.weeks.ago, 2026-01-31), or an age (7d, 12h)',
      },
      'max-count': { type: 'string', short: 'n', arg: 'N', describe: 'show at most N lines (a text carried by several versions is one line; default 20)' },
      relevance: { type: 'boolean', describe: 'order by relevance instead of newest first' },
      json: JSON_OPTION,
    },
    examples: ['git handoff search quoting parser', "git handoff search 'парсер' --since 30d", 'git handoff search 解析器 --json'],
  },

  async run(args, ctx) {
    const query = args.positionals.join(' ');
    if (!query.trim()) throw new UsageError('search: missing QUERY');
    const nRaw = str(args.values['max-count']);
    const limit = nRaw === undefined ? undefined : Number(nRaw);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) throw new UsageError(`search: -n needs a whole number, not '${nRaw}'`);
    const order: SearchOrder = args.values.relevance ? 'relevance' : 'newest';
    const r = await withRepo(ctx.cwd, (repo) => searchHandoffs(repo, { query, branch: str(args.values.branch), since: str(args.values.since), limit, order }));
    // nothing matched: exit 1, as grep and git grep do (DESIGN.md)
    const code = r.hits.length ? 0 : 1;
    if (ctx.json) {
      ctx.io.json(searchJson(r));
      return code;
    }
    if (r.skippedInvalid) ctx.io.err(`warning: skipped ${r.skippedInvalid} invalid note${r.skippedInvalid === 1 ? '' : 's'}`);
    if (r.unreadable) ctx.io.err(unreadableLine(r.unreadable));
    const p = ctx.io.paint;
    // the same text carried forward by later versions is one line, newest first, with the count
    for (const group of groupHits(r.hits)) {
      const h = group[0];
      ctx.io.out(
        `${p.warn(h.version.slice(0, 12))} ${p.dim(h.date.replace('T', ' ').replace('Z', ''))} ${visibleText(`${h.branch ?? '-'} ${h.field}: ${h.snippet}`)}${p.dim(groupNote(group))}\n`,
      );
    }
    if (!r.hits.length) ctx.io.err(`no version matches '${query}' (${r.searched} searched)`);
    else if (r.more) ctx.io.err(`… ${r.more} more version${r.more === 1 ? '' : 's'} match; use -n to see them`);
    return code;
  },
};

/** The one line for the encrypted versions a search could not read (docs/privacy.md). */
export const unreadableLine = (n: number) =>
  `${n} version${n === 1 ? ' is' : 's are'} encrypted for others and your key cannot read ${n === 1 ? 'it' : 'them'}: not searched`;
