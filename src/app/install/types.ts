/**
 * The installer framework behind `git handoff init` / `uninstall`.
 *
 * Each concern (git hooks, notes config, agent hooks, sync) is one `Installer` in its own
 * file under src/app/install/, listed once in `INSTALLERS` (./index.ts). An installer only
 * PLANS: it looks at the repository through `PlanContext` and returns `Step`s, plain data.
 * The engine prints the plan (`--dry-run`), applies it, and records under the git common dir
 * (`<common-dir>/handoff/install.json`) each file's bytes before init and a hash after, and
 * each config value init added. `uninstall` restores a file byte for byte when it is still
 * as init left it; when someone changed it since, the owning installer's `undo` takes back
 * only its own part (e.g. a marked block). Config values are removed only where init added
 * them.
 *
 * To add an installer: write `src/app/install/<name>.ts` exporting an `Installer`, add it to
 * `INSTALLERS`, declare its command-line options in `options` (they join `init`'s spec), and
 * return steps from `plan` that are empty when the work is already done (a second `init`
 * changes nothing, byte for byte).
 */
import type { OptionSpec } from '../command-line.js';
import type { Repo } from '../../git/repo.js';

/** Parsed `init` options, by option name (e.g. `display`, `agent`, `sync`). */
export type InstallOptions = Record<string, string | boolean | string[] | undefined>;

/** Write a file whole (`content`), or delete it (`content: null`). */
export interface FileStep {
  kind: 'file';
  /** absolute path */
  path: string;
  content: Buffer | null;
  /** file mode for a new or rewritten file (default: the existing mode, else 0o644) */
  mode?: number;
  /** restore a symbolic link instead of writing bytes (used by uninstall) */
  link?: string;
  /** uninstall: folders init created for this file, removed at the end when left empty */
  prune?: string[];
  /** one line for the plan */
  summary: string;
  /**
   * What the owning installer needs to take this change back when the file changed after
   * init (passed to its `undo`). Plain JSON.
   */
  recipe?: unknown;
}

/** `git config --local` (`add`: another value of a multi-valued key; `unset`: remove `value`). */
export interface ConfigStep {
  kind: 'config';
  key: string;
  value: string;
  action: 'set' | 'add' | 'unset';
  summary: string;
}

/** Nothing to apply: a line the user should read (a kept value, a hint). */
export interface NoticeStep {
  kind: 'notice';
  summary: string;
  /** one of our hooks no longer runs and init cannot put it back by itself: doctor reports it */
  unreached?: boolean;
}

export type Step = FileStep | ConfigStep | NoticeStep;

/** A step with the installer that planned it. */
export type PlannedStep = Step & { installer: string };

export interface PlanContext {
  repo: Repo;
  options: InstallOptions;
  /** the file as the plan so far leaves it (earlier steps applied), or null when absent */
  read(path: string): Buffer | null;
  /** mode of the file as it is on disk, or null */
  mode(path: string): number | null;
  /** effective config values (all scopes) */
  configAll(key: string): Promise<string[]>;
  /** the effective hooks folder (`git rev-parse --git-path hooks`), absolute */
  hooksDir(): Promise<string>;
  /** the package's own folder (for githooks/, templates/) */
  packageRoot: string;
  /** what earlier inits recorded (null: none) */
  record: InstallRecord | null;
}

/** How a file was before init (or null: it did not exist). */
export type FileBefore = { data: string; mode: number } | { link: string } | null;

export interface RecordedFile {
  installer: string;
  /** 'common': relative to the git common dir; 'worktree': to the work tree top; 'absolute' */
  base: 'common' | 'worktree' | 'absolute';
  path: string;
  before: FileBefore;
  /** sha1 of the bytes init left (null: init deleted it) */
  after: string | null;
  /** how many folders above the file init created for it (absent: none) */
  dirsCreated?: number;
  /**
   * Someone changed the file between two inits: `before` is no longer what to put back, so
   * uninstall only takes our part out (never writes the saved copy over their edits).
   */
  edited?: boolean;
  recipe?: unknown;
}

export interface RecordedConfig {
  installer: string;
  key: string;
  value: string;
  /** the local value init replaced (`set` over an existing one); uninstall sets it back */
  previous?: string;
}

export interface InstallRecord {
  version: 1;
  files: RecordedFile[];
  config: RecordedConfig[];
}

export interface Installer {
  /** stable id, stored in install.json (e.g. 'git-hooks', 'notes-config', 'agent-claude') */
  id: string;
  /** options this installer adds to `init` */
  options?: Record<string, OptionSpec>;
  /** whether it takes part in this `init` (default: always) */
  wanted?(options: InstallOptions): boolean;
  plan(ctx: PlanContext): Promise<Step[]>;
  /**
   * Takes back this installer's part of a file that changed after init: the new bytes,
   * null to delete the file, or 'keep' to leave it (with a notice). Default: 'keep'.
   */
  undo?(file: RecordedFile, current: Buffer | null): Buffer | null | 'keep';
  /**
   * Uninstall of a recorded file the installer takes back itself, whatever its state (e.g. a
   * hook shim another manager moved): the steps, or undefined for the default (restore when
   * unchanged since init, else `undo`).
   */
  undoSteps?(file: RecordedFile, abs: string, ctx: PlanContext): Promise<Step[] | undefined> | Step[] | undefined;
  /** Uninstall without a record (install.json lost): steps that remove what is clearly ours. */
  orphans?(ctx: PlanContext): Promise<Step[]>;
}
