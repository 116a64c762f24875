import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { showHandoff } from '../app/show.js';
import { bookmarkText, FIRST_RUN_LINE, notices, showJson } from '../app/show-report.js';
import { cappedNotices } from '../core/bookmark.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'show',
    summary: 'print the bookmark of the latest handoff (nothing when there is none)',
    description:
      'The latest version is the newest one written on the current branch; when the branch has none, the newest overall. A version older than handoff.staleDays (default 7) is flagged stale.',
    options: {
      version: { type: 'string', arg: 'id|prefix|~N', describe: 'show this version instead of the latest' },
      branch: { type: 'string', arg: 'name', describe: 'the latest version of another branch' },
      all: { type: 'boolean', describe: 'the newest version of any branch' },
      notices: { type: 'boolean', describe: 'print every notice about the version (the bookmark shows at most 5), one a line, and nothing else' },
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const r = await withRepo(ctx.cwd, (repo) =>
      showHandoff(repo, { version: str(args.values.version), branch: str(args.values.branch), all: Boolean(args.values.all) }),
    );
    if (ctx.json) return void ctx.io.json(showJson(r));
    if (args.values.notices)
      return void ctx.io.out(
        notices(r)
          .map((n) => `${visibleText(n)}\n`)
          .join(''),
      );
    const bookmark = bookmarkText(r, ctx.io.paint);
    if (bookmark !== null) return void ctx.io.out(bookmark);
    // nothing to show, but a reader must still learn that notes were passed over
    const said = cappedNotices(notices(r));
    for (const n of said) ctx.io.err(n);
    // a person's first run: stdout stays empty, as scripts and hooks expect
    if (!said.length && ctx.io.terminal) ctx.io.err(FIRST_RUN_LINE);
  },
};
