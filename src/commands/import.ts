import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { withRepo } from '../app/repository.js';
import { readInputFile, readStdin } from '../cli/io.js';
import { importHandoff, IMPORT_FORMATS, type ImportFormat } from '../app/import.js';
import { InvalidInput, UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'import',
    summary: 'append a version from a .tasks/NEXT_SESSION.md, JSON or YAML file',
    description:
      "The migration path for handoffs kept in a file. NEXT_SESSION.md is read with English or Russian headings (Open треки, Спроси user'а, Не делать, Memory updates за сессию; table columns by position); JSON and YAML as 'write' reads them. The content is validated and scanned for secrets like any write.",
    positionals: [{ name: 'file', describe: "the file ('-' for stdin)" }],
    options: {
      format: { type: 'string', short: 'F', arg: IMPORT_FORMATS.join('|'), describe: 'input format (default auto)' },
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ['git handoff import .tasks/NEXT_SESSION.md', 'git handoff export --format json | git handoff import -'],
  },

  async run(args, ctx) {
    const format = (str(args.values.format) ?? 'auto') as ImportFormat;
    if (!IMPORT_FORMATS.includes(format)) throw new UsageError(`import: --format must be one of ${IMPORT_FORMATS.join(', ')}, not '${format}'`);
    const file = args.positionals[0];
    const bytes = file === '-' ? await readStdin(ctx.io) : readInputFile(ctx.cwd, file);
    if (!bytes || bytes.length === 0) throw new InvalidInput(`${file === '-' ? 'stdin' : file} is empty`);
    const r = await withRepo(ctx.cwd, (repo) =>
      importHandoff(repo, { bytes, name: file === '-' ? 'stdin' : file, format, dryRun: Boolean(args.values['dry-run']) }),
    );
    for (const s of r.unknownSections) ctx.io.err(`git handoff: note: section '${s}' is not part of the convention; kept in the summary`);
    for (const w of r.warnings) ctx.io.err(`git handoff: warning: ${w}`);
    const against = r.changes.previous ? ` (against ${r.changes.previous.slice(0, 12)})` : '';
    if (ctx.json) {
      ctx.io.json({
        ok: true,
        version: r.version,
        target: r.target,
        unchanged: r.unchanged,
        ...(r.dryRun ? { dry_run: true } : {}),
        format: r.format,
        changes: r.changes,
        handoff: r.handoff,
      });
    } else if (r.unchanged) {
      ctx.io.out(`unchanged: version ${r.version!.slice(0, 12)} already holds this handoff for ${r.target.slice(0, 7)}\n`);
    } else if (r.dryRun) {
      ctx.io.out(`dry run: would append a version for ${r.target.slice(0, 7)} with this note:\n${r.yaml}${r.changes.line}${against}\n`);
    } else {
      ctx.io.out(`imported ${file} as version ${r.version!.slice(0, 12)} for ${r.target.slice(0, 7)}\n${r.changes.line}${against}\n`);
    }
  },
};
