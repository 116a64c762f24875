/**
 * The entry point: picks the command, parses its options, runs it, and is the only place
 * that turns errors into exit codes and text (docs/architecture.md, "A command's life").
 */
import { COMMAND_GROUPS, COMMANDS } from './commands/registry.js';
import { parseCommandArgs, renderHelp, renderOverview, renderManPage, type CommandGroup } from './cli/spec.js';
import { processIo } from './cli/io.js';
import type { Io } from './app/io.js';
import { FileSystemRefused, isHandoffError, reportedMessage, UsageError } from './errors.js';
import { nearestName } from './core/nearest-name.js';
import { takeConfigWarnings } from './git/config-values.js';
import { describeFsError, describeGitFsFailure } from './git/fs-failure.js';
import { discoverInProcess } from './git/discover.js';

declare const __VERSION__: string;
export const VERSION = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

/** Every command's spec, in the groups of `git handoff -h`. */
async function allSpecs(): Promise<CommandGroup[]> {
  return Promise.all(
    COMMAND_GROUPS.map(async (g) => ({ title: g.title, specs: await Promise.all(g.commands.map(async (name) => (await COMMANDS[name]()).command.spec)) })),
  );
}

export async function main(argv: string[], io: Io = processIo(), cwd = process.cwd()): Promise<number> {
  const wantsJson = argv.includes('--json');
  // a usage error met while a command runs points to that command's -h
  let running: string | null = null;
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
      if (name === 'help' && rest[0] && COMMANDS[rest[0]]) {
        io.out(renderHelp((await COMMANDS[rest[0]]()).command.spec));
      } else {
        io.out(renderOverview(await allSpecs(), VERSION));
      }
      return name === undefined ? 2 : 0;
    }
    if (name === '--version' || name === '-v' || name === 'version') {
      io.out(`git-handoff ${VERSION}\n`);
      return 0;
    }
    if (name === '--man-page') {
      io.out(renderManPage(await allSpecs(), VERSION));
      return 0;
    }
    const load = COMMANDS[name];
    if (!load) {
      const near = nearestName(name, Object.keys(COMMANDS));
      throw new UsageError(`'${name}' is not a git handoff command${near ? ` (did you mean '${near}'?)` : ''}; see 'git handoff -h'`);
    }
    const { command } = await load();
    running = name;
    const args = parseCommandArgs(command.spec, rest);
    if (args.values.help) {
      io.out(renderHelp(command.spec));
      return 0;
    }
    const code = await command.run(args, { io, cwd, json: Boolean(args.values.json), version: VERSION });
    return code ?? 0;
  } catch (e) {
    return reportError(asFileSystemRefusal(e, cwd), io, wantsJson, running);
  } finally {
    for (const w of takeConfigWarnings()) io.err(`git handoff: warning: ${w}`);
  }
}

/**
 * A disk full, no inodes left, a read-only file system or a permission denied is the
 * user's environment, not our bug: one line naming it and exit 1, not `internal error`
 * and exit 3. Errors that already say what failed (exit 1, 2, 4) are kept.
 */
function asFileSystemRefusal(e: unknown, cwd: string): unknown {
  if (isHandoffError(e) && e.exitCode !== 3) return e;
  let gitDir: string | null = null;
  try {
    const found = discoverInProcess(cwd);
    gitDir = found && 'gitDir' in found ? found.gitDir : null;
  } catch {
    gitDir = null;
  }
  const line = isHandoffError(e) ? describeGitFsFailure(e.message, gitDir) : describeFsError(e, gitDir);
  return line ? new FileSystemRefused(line) : e;
}

function reportError(e: unknown, io: Io, json: boolean, command: string | null): number {
  const known = isHandoffError(e);
  const code = known ? e.code : 'InternalError';
  const message = reportedMessage(e);
  // One line, always; a usage error says where the usage is.
  const help = command ? `git handoff ${command} -h` : 'git handoff -h';
  io.err(`git handoff: ${message}${known && e.exitCode === 2 && !/ -h'/.test(message) ? ` (see '${help}')` : ''}`);
  const stack = (e as { stack?: unknown } | null)?.stack;
  if (process.env.HANDOFF_DEBUG && typeof stack === 'string') io.err(stack);
  if (json) io.json({ ok: false, error: { code, message, ...(known && Object.keys(e.data).length ? { data: e.data } : {}) } });
  return known ? e.exitCode : 3;
}
