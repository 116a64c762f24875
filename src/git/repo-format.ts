/**
 * The repository format check discovery needs (setup.c check_repository_format_gently),
 * in-process: the format version, the extensions, core.bare and core.worktree.
 */
import { join } from 'node:path';
import { Unsupported, parseBool, parseConfigText, readIfExists } from './config-text.js';

/** What discovery needs from a repository's own config (setup.c check_repository_format_gently). */
export interface RepoFormat {
  version: number;
  objectFormat: string;
  /** core.bare as it applies to this git dir; null when unset */
  bare: boolean | null;
  /** core.worktree as it applies to this git dir; null when unset */
  worktree: string | null;
  worktreeConfig: boolean;
}

const V0_EXTENSIONS = new Set(['noop', 'preciousobjects', 'partialclone', 'worktreeconfig']);
const V1_EXTENSIONS = new Set(['noop-v1', 'objectformat']);

/**
 * The repository format of `gitDir` as git 2.39 reads it, or null to let git decide: a
 * missing config, a format version or extension git would refuse or that this reader does
 * not know (reftable's extensions.refStorage among them), a value git would die on.
 */
export function readRepoFormat(gitDir: string, commonDir: string): RepoFormat | null {
  try {
    const text = readIfExists(join(commonDir, 'config'));
    if (text === null) return null;
    let version = 0;
    let objectFormat = 'sha1';
    let worktreeConfig = false;
    let bare: boolean | null = null;
    let worktree: string | null = null;
    let unknown = false;
    let v1Only = false;
    const core = (k: string, v: string | null) => {
      if (k === 'core.bare') {
        const b = parseBool(v);
        if (b === undefined) throw new Unsupported('core.bare');
        bare = b;
      } else if (k === 'core.worktree') {
        if (v === null) throw new Unsupported('core.worktree');
        worktree = v;
      }
    };
    for (const [k, v] of parseConfigText(text, { includes: 'skip' })) {
      if (k === 'core.repositoryformatversion') {
        if (v === null || !/^\d+$/.test(v.trim())) throw new Unsupported('version');
        version = Number(v.trim());
      } else if (k.startsWith('extensions.')) {
        const ext = k.slice('extensions.'.length);
        if (ext === 'refstorage') throw new Unsupported('ref storage: git knows its own refs');
        if (ext === 'worktreeconfig') {
          const b = parseBool(v);
          if (b === undefined) throw new Unsupported('worktreeconfig');
          worktreeConfig = b;
        } else if (V1_EXTENSIONS.has(ext)) {
          v1Only = true;
          if (ext === 'objectformat') {
            if (v === null) throw new Unsupported('objectformat');
            objectFormat = v.toLowerCase();
          }
        } else if (!V0_EXTENSIONS.has(ext)) unknown = true;
      } else core(k, v);
    }
    if (version > 1 || (version >= 1 && unknown) || (version === 0 && v1Only)) return null;
    const linked = gitDir !== commonDir;
    let applies = !linked;
    if (worktreeConfig) {
      const wt = readIfExists(join(gitDir, 'config.worktree'));
      for (const [k, v] of wt ? parseConfigText(wt, { includes: 'skip' }) : []) core(k, v);
      applies = true;
    }
    // A linked worktree ignores the common config's core.bare/core.worktree unless
    // worktreeConfig is on (then git applies what it read from both files).
    return { version, objectFormat, worktreeConfig, bare: applies ? bare : null, worktree: applies ? worktree : null };
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
