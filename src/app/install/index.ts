/**
 * The install engine: asks every wanted installer for its plan, applies it and records what
 * it changed; `uninstall` turns the record back into steps. See ./types.ts for the contract
 * an installer follows.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Repo } from '../../git/repo.js';
import { configLocal, configLocalAll, effectiveHooksDir, removeEmptySection } from '../../git/local-config.js';
import {
  fileState,
  missingParents,
  parentDirs,
  readInstallRecord,
  recordPath,
  removeEmptyDirs,
  removeFile,
  removeInstallRecord,
  resolveRecordPath,
  sha1,
  writeInstallRecord,
  writeLink,
} from '../../state/install-files.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { InstallationIncomplete } from '../../errors.js';
import { gitHooksInstaller, planForwarders } from './git-hooks/index.js';
import { notesConfigInstaller } from './notes-config.js';
import { syncInstaller } from './sync.js';
import { agentInstallers } from './agents.js';
import type { FileBefore, InstallOptions, InstallRecord, Installer, PlanContext, PlannedStep, RecordedFile, Step } from './types.js';
import { insidePath, isInside, writablePath } from '../../state/bounded-file.js';

export type { Installer, InstallOptions, PlannedStep, Step } from './types.js';

/** Every installer, in the order they plan and apply. Add one line per installer. */
export const INSTALLERS: Installer[] = [gitHooksInstaller, notesConfigInstaller, syncInstaller, ...agentInstallers];

/** The installed package's root (where githooks/ and templates/ are), found from this module. */
export function packageRoot(): string {
  // The CLI ships as CommonJS bundles, where `__dirname` exists; `import.meta` does not.
  let dir = typeof __dirname === 'string' ? __dirname : dirname(realpathSync(process.argv[1] ?? '.'));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if (JSON.parse(readFileSync(pkg, 'utf8')).name === 'git-handoff') return dir;
      } catch {}
    }
    dir = dirname(dir);
  }
  throw new InstallationIncomplete('cannot find the git-handoff package folder (githooks/ is missing)');
}

function planContext(repo: Repo, options: InstallOptions, overlay: Map<string, Buffer | null>): PlanContext {
  let hooks: Promise<string> | null = null;
  return {
    repo,
    options,
    read: (path) => (overlay.has(path) ? overlay.get(path)! : fileState(keptInside(repo, path)).data),
    mode: (path) => fileState(path).mode,
    configAll: (key) => repo.configAll(key),
    hooksDir: () => (hooks ??= effectiveHooksDir(repo)),
    packageRoot: packageRoot(),
    record: readInstallRecord<InstallRecord>(repo),
  };
}

/**
 * `path` itself, refused (UnsafePath, one line naming it) when it lies in the work tree and a
 * symlink there leads out of it: a tracked `.claude/` linked to the user's own, a `CLAUDE.md`
 * linked to `~/.bashrc`. A file to be written must be a regular file (or absent). The git dir
 * holds no repository content (a checkout writes no link there), and paths outside the work
 * tree (an agent's own user-level file) are the installer's choice, not the repository's.
 */
function keptInside(repo: Repo, path: string, write = false): string {
  const abs = resolve(path);
  const top = repo.workTree;
  if (!top || !isInside(resolve(top), abs) || [repo.paths.commonDir, repo.gitDir].some((d) => isInside(resolve(d), abs))) return path;
  if (write) writablePath(top, relative(top, abs));
  else insidePath(top, relative(top, abs));
  return path;
}

/** The steps `init` would take; empty when everything is already in place. */
export async function planInstall(repo: Repo, options: InstallOptions): Promise<PlannedStep[]> {
  const overlay = new Map<string, Buffer | null>();
  const ctx = planContext(repo, options, overlay);
  const out: PlannedStep[] = [];
  for (const inst of INSTALLERS) {
    if (inst.wanted && !inst.wanted(options)) continue;
    for (const step of await inst.plan(ctx)) {
      if (step.kind === 'file') {
        keptInside(repo, step.path, true);
        overlay.set(step.path, step.content);
      }
      out.push({ ...step, installer: inst.id });
    }
  }
  return out;
}

function emptyRecord(): InstallRecord {
  return { version: 1, files: [], config: [] };
}

function beforeOf(path: string): FileBefore {
  const s = fileState(path);
  if (s.link !== null) return { link: s.link };
  if (s.data === null) return null;
  return { data: s.data.toString('base64'), mode: s.mode ?? 0o644 };
}

/** Applies `init`'s plan and records it, keeping what an earlier init recorded as "before". */
export async function applyInstall(repo: Repo, steps: PlannedStep[]): Promise<void> {
  if (!steps.some((s) => s.kind !== 'notice')) return;
  const record = readInstallRecord<InstallRecord>(repo) ?? emptyRecord();
  // Records of older versions kept the whole config file; config is now undone key by key.
  record.files = record.files.filter((f) => f.installer !== 'config');
  const touched = new Map<string, RecordedFile>();
  const remember = (installer: string, abs: string, recipe?: unknown) => {
    const where = recordPath(repo, abs);
    let entry = record.files.find((f) => f.base === where.base && f.path === where.path);
    if (!entry) {
      const before = beforeOf(abs);
      const dirs = before === null ? missingParents(abs) : 0;
      entry = { installer, ...where, before, after: null, ...(dirs ? { dirsCreated: dirs } : {}) };
      record.files.push(entry);
    } else if (!touched.has(abs) && sha1(fileState(abs).data) !== entry.after) {
      // Changed since the last init by someone else: its saved "before" must never come back.
      entry.edited = true;
    }
    // a file an earlier init created stays one init created (uninstall removes it)
    const createdBefore = (entry.recipe as { created?: unknown } | undefined)?.created === true;
    if (recipe !== undefined)
      entry.recipe = createdBefore && (recipe as { created?: unknown }).created === false ? { ...(recipe as object), created: true } : recipe;
    touched.set(abs, entry);
  };
  for (const s of steps) {
    if (s.kind === 'file') {
      remember(s.installer, s.path, s.recipe);
      if (s.content === null) removeFile(s.path);
      else writeFileAtomic(s.path, s.content, { mode: s.mode ?? fileState(s.path).mode ?? 0o644 });
    } else if (s.kind === 'config') {
      const previous = s.action === 'set' ? (await configLocalAll(repo, s.key)).at(-1) : undefined;
      await configLocal(repo, s.action, s.key, s.value);
      if (s.action === 'unset') record.config = record.config.filter((c) => !(c.key === s.key && c.value === s.value));
      else if (!record.config.some((c) => c.key === s.key && c.value === s.value)) {
        record.config.push({ installer: s.installer, key: s.key, value: s.value, ...(previous !== undefined && previous !== s.value ? { previous } : {}) });
      }
    }
  }
  for (const [abs, entry] of touched) entry.after = sha1(fileState(abs).data);
  writeInstallRecord(repo, record);
}

/**
 * Brings the hook forwarders in step with the tracked folder they forward to, as init would,
 * and records what changed (uninstall takes it back out); the summaries of what it did. Run by
 * the forwarders after a checkout or a pull (`git handoff hook forwarders`). Only where init ran.
 */
export async function refreshForwarders(repo: Repo): Promise<string[]> {
  const ctx = planContext(repo, {}, new Map());
  if (!ctx.record) return [];
  const steps = (await planForwarders(ctx)).map((s) => ({ ...s, installer: gitHooksInstaller.id }));
  await applyInstall(repo, steps);
  return steps.flatMap((s) => (s.summary ? [s.summary] : []));
}

/** A path as the user sees it: relative to the work tree top when inside it. */
function shownPath(repo: Repo, abs: string): string {
  const top = repo.workTree;
  return top && abs.startsWith(`${top}/`) ? abs.slice(top.length + 1) : abs;
}

function restoreStep(installer: string, abs: string, before: FileBefore, summary: string): Step {
  if (before === null) return { kind: 'file', path: abs, content: null, summary };
  if ('link' in before) return { kind: 'file', path: abs, content: null, link: before.link, summary };
  return { kind: 'file', path: abs, content: Buffer.from(before.data, 'base64'), mode: before.mode, summary };
}

/**
 * The steps `uninstall` would take, from the record (or, without one, from what is clearly
 * ours). Config is undone key by key: a value goes only when init set it and it still holds
 * init's value. A file goes back to its saved copy only when nobody touched it since init;
 * otherwise only our part comes out and the rest stays, with a note saying why.
 */
export async function planUninstall(repo: Repo): Promise<{ steps: PlannedStep[]; recorded: boolean }> {
  const record = readInstallRecord<InstallRecord>(repo);
  const steps: PlannedStep[] = [];
  const ctx = planContext(repo, {}, new Map());
  if (!record) {
    for (const inst of INSTALLERS) {
      for (const s of (await inst.orphans?.(ctx)) ?? []) steps.push({ ...s, installer: inst.id });
    }
    steps.push({ kind: 'notice', installer: 'config', summary: 'no install record: config values were left as they are' });
    return { steps, recorded: false };
  }
  const byId = new Map(INSTALLERS.map((i) => [i.id, i]));
  for (const f of [...record.files].reverse()) {
    if (f.installer === 'config') continue; // older records: the config file is undone key by key below
    const abs = resolveRecordPath(repo, f);
    const current = fileState(abs).data;
    const shown = shownPath(repo, abs);
    const prune = f.dirsCreated ? { prune: parentDirs(abs, f.dirsCreated) } : {};
    const inst = byId.get(f.installer);
    if (current === null && f.before === null && f.after === null) continue; // created, then taken out again by us
    const own = await inst?.undoSteps?.(f, abs, ctx);
    if (own) {
      for (const s of own) steps.push({ ...s, ...(s.kind === 'file' && s.content === null && s.path === abs ? prune : {}), installer: f.installer });
      continue;
    }
    if (sha1(current) === f.after && !f.edited) {
      const what = f.before === null ? `remove ${shown}` : `restore ${shown} as it was before init`;
      steps.push({ ...restoreStep(f.installer, abs, f.before, what), ...(f.before === null ? prune : {}), installer: f.installer });
      continue;
    }
    const undo = inst?.undo ? inst.undo(f, current) : 'keep';
    const since = f.edited && sha1(current) === f.after ? 'it changed between two inits' : 'it changed after init';
    if (undo === 'keep') {
      steps.push({ kind: 'notice', installer: f.installer, summary: `left ${shown} as it is: ${since} and holds nothing of ours to take out` });
    } else {
      steps.push({
        kind: 'file',
        installer: f.installer,
        path: abs,
        content: undo,
        ...(undo === null ? prune : {}),
        summary: `${undo === null ? 'remove' : 'take our part out of'} ${shown} (${since})`,
      });
    }
  }
  // Folders init created go once empty, whichever step empties them.
  const created = record.files.flatMap((f) => (f.dirsCreated ? parentDirs(resolveRecordPath(repo, f), f.dirsCreated) : []));
  const lastRemoval = [...steps].reverse().find((s) => s.kind === 'file' && s.content === null && s.link === undefined);
  if (lastRemoval && lastRemoval.kind === 'file' && created.length) lastRemoval.prune = [...new Set([...(lastRemoval.prune ?? []), ...created])];
  for (const c of [...record.config].reverse()) {
    const local = await configLocalAll(repo, c.key);
    if (!local.includes(c.value)) {
      steps.push({ kind: 'notice', installer: c.installer, summary: `left ${c.key} as it is: it no longer holds the value init set (${c.value})` });
    } else if (c.previous !== undefined && local.length === 1) {
      steps.push({ kind: 'config', installer: c.installer, key: c.key, value: c.previous, action: 'set', summary: `set ${c.key} back to ${c.previous}` });
    } else {
      steps.push({ kind: 'config', installer: c.installer, key: c.key, value: c.value, action: 'unset', summary: `unset ${c.key}=${c.value}` });
    }
  }
  return { steps, recorded: true };
}

export async function applyUninstall(repo: Repo, steps: PlannedStep[]): Promise<void> {
  const sections = new Set<string>();
  const prune: string[] = [];
  for (const s of steps) {
    if (s.kind === 'file') {
      if (s.link !== undefined) writeLink(s.path, s.link);
      else if (s.content === null) removeFile(s.path);
      else writeFileAtomic(s.path, s.content, { mode: s.mode ?? fileState(s.path).mode ?? 0o644 });
      if (s.content === null && s.link === undefined) prune.push(...(s.prune ?? []));
    } else if (s.kind === 'config') {
      await configLocal(repo, s.action, s.key, s.value);
      sections.add(s.key.slice(0, s.key.lastIndexOf('.')));
    }
  }
  for (const section of sections) await removeEmptySection(repo, section);
  // after every file is gone: two files init created in one new folder both left it
  removeEmptyDirs(prune);
  removeInstallRecord(repo);
}
