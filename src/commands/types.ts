import type { CommandSpec, ParsedArgs } from '../app/command-line.js';
import type { Io } from '../app/io.js';

export interface CommandContext {
  io: Io;
  cwd: string;
  json: boolean;
  /** this program's version, as `git handoff --version` prints it */
  version: string;
}

/** One command: its spec (parser, -h, man page) and what it does. Returns the exit code. */
export interface CommandModule {
  spec: CommandSpec;
  run(args: ParsedArgs, ctx: CommandContext): Promise<number | void>;
}

export const JSON_OPTION = { type: 'boolean', describe: 'print one JSON document on stdout' } as const;
export const DRY_RUN_OPTION = { type: 'boolean', describe: 'print what would be done and write nothing' } as const;

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
export function list(v: unknown): string[] | undefined {
  return Array.isArray(v) ? (v as string[]) : undefined;
}
