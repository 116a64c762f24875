import { resolve } from 'node:path';
import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { exportHandoff, exportTarget, writeExport, EXPORT_FORMATS, type ExportFormat } from '../app/export.js';
import { UsageError } from '../errors.js';
import { jsonVisible, visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'export',
    summary: 'print a handoff as .tasks/NEXT_SESSION.md, JSON or YAML',
    description:
      'next-session follows the .tasks/NEXT_SESSION.md convention (front matter _last_updated_ and session_id; Recent commits, Open tracks as a table, Ask the user, Don\'t do, Memory updates; "(none this round)" for an empty section). json and yaml carry every field; git handoff import reads all three back.',
    options: {
      format: { type: 'string', short: 'F', arg: EXPORT_FORMATS.join('|'), describe: 'output format (default next-session)' },
      version: { type: 'string', arg: 'id|prefix|~N', describe: 'export this version instead of the latest' },
      branch: { type: 'string', arg: 'name', describe: 'the latest version of another branch' },
      all: { type: 'boolean', describe: 'the newest version of any branch' },
      output: { type: 'string', short: 'o', arg: 'path', describe: 'write to this file instead of stdout' },
      'dry-run': DRY_RUN_OPTION,
    },
    examples: ['git handoff export > .tasks/NEXT_SESSION.md', 'git handoff export --format json --version ~1'],
  },

  async run(args, ctx) {
    const format = (str(args.values.format) ?? 'next-session') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`export: --format must be one of ${EXPORT_FORMATS.join(', ')}, not '${format}'`);
    const r = await withRepo(ctx.cwd, (repo) =>
      exportHandoff(repo, { format, version: str(args.values.version), branch: str(args.values.branch), all: Boolean(args.values.all) }),
    );
    const output = str(args.values.output);
    // As show says it: never silently another branch's handoff.
    if (r.fallback)
      ctx.io.err(
        `git handoff: no handoff on ${r.fallback.branch === null ? 'this detached HEAD' : `branch ${r.fallback.branch}`} yet; exporting the newest one${r.fallback.from ? ` (from ${r.fallback.from})` : ''}`,
      );
    for (const line of r.unreadable) ctx.io.err(`git handoff: ${visibleText(line)}`);
    // To stdout the export is a rendering: shown visibly (JSON keeps the exact text as escapes); a file gets the exact text.
    if (!output) return void ctx.io.out(format === 'json' ? jsonVisible(r.text) : visibleText(r.text));
    const path = exportTarget(r, resolve(ctx.cwd, output));
    if (args.values['dry-run'])
      return void ctx.io.out(`dry run: would write version ${r.version.slice(0, 12)} as ${format} to ${path} (${Buffer.byteLength(r.text)} bytes)\n`);
    writeExport(path, r.text);
    ctx.io.err(`wrote version ${r.version.slice(0, 12)} as ${format} to ${output}`);
    if (r.visibility !== 'shared')
      ctx.io.err(
        `git handoff: that version is ${r.visibility} (encrypted in the notes); ${output} holds its text in the clear: keep it out of git and anything shared`,
      );
  },
};
