/**
 * Reads git's configuration in-process: the same files, in the same order, as `git config
 * -l` (system, global, local, worktree, GIT_CONFIG_COUNT pairs), with git's key spelling
 * (section and name lower-cased, a subsection kept as written: `[remote "Origin"]` is
 * `remote.Origin.*`, never `remote.origin.*`), following `include` and the common
 * `includeIf` conditions as git does. Anything this reader cannot answer exactly (glob
 * patterns in a condition, `hasconfig:`, `git -c` parameters, a git build whose system file
 * it cannot name) returns null, and the caller asks git itself. Saves a git process on every hook and `show`.
 */
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { Unsupported, canonicalKey, parseConfigText, readIfExists, type ConfigEntry } from './config-text.js';
import { readRepoFormat } from './repo-format.js';
import { readHead } from './head.js';

export type ConfigMap = Map<string, string[]>;
/** git_env_bool: undefined for a value git would die on. */
export function envBool(name: string, fallback: boolean): boolean | undefined {
  const v = process.env[name];
  if (v === undefined) return fallback;
  if (v === '' || /^(false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return true;
  if (/^-?\d+$/.test(v)) return Number(v) !== 0;
  return undefined;
}

let prefixCache: { path: string; prefix: string | null } | null = null;

/**
 * The installation prefix of the `git` that PATH starts (the one every child of ours runs),
 * when it can be named without running it: a Linux /usr/bin/git (prefix /usr, system file
 * /etc/gitconfig, as every distribution builds it). null elsewhere (/usr/local, Homebrew,
 * Nix, Xcode's shim, a wrapper script): then the caller declines and git answers.
 */
export function gitPrefix(): string | null {
  const path = process.env.PATH ?? '';
  if (prefixCache?.path === path) return prefixCache.prefix;
  let prefix: string | null = null;
  if (process.platform === 'linux') {
    for (const dir of path.split(':')) {
      // An empty or relative entry is searched from the child's directory: not ours to guess.
      if (!dir || !isAbsolute(dir)) break;
      const candidate = join(dir, 'git');
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(candidate, { throwIfNoEntry: false });
      } catch {
        continue; // a folder on PATH we may not search: execvp goes on to the next
      }
      if (!st || !st.isFile() || !(st.mode & 0o111)) continue;
      try {
        prefix = realpathSync.native(candidate) === '/usr/bin/git' ? '/usr' : null;
      } catch {}
      break;
    }
  }
  prefixCache = { path, prefix };
  return prefix;
}

/** The system config file (git_system_config), null when git reads none, undefined when only git can say. */
function systemConfigFile(): string | null | undefined {
  const noSystem = envBool('GIT_CONFIG_NOSYSTEM', false);
  if (noSystem !== false) return noSystem ? null : undefined;
  const sys = process.env.GIT_CONFIG_SYSTEM;
  if (sys !== undefined) return sys === '' ? null : isAbsolute(sys) ? sys : undefined;
  return gitPrefix() === '/usr' ? '/etc/gitconfig' : undefined;
}

/** The global files (git_global_config): XDG then ~/.gitconfig, or GIT_CONFIG_GLOBAL. */
function globalConfigFiles(): string[] | undefined {
  const env = process.env;
  const g = env.GIT_CONFIG_GLOBAL;
  if (g !== undefined) return g === '' ? [] : isAbsolute(g) ? [g] : undefined;
  const home = env.HOME;
  const xdg = env.XDG_CONFIG_HOME;
  if (home === '' || (xdg && !isAbsolute(xdg)) || (home !== undefined && !isAbsolute(home))) return undefined;
  const files: string[] = [];
  if (xdg) files.push(join(xdg, 'git', 'config'));
  else if (home) files.push(join(home, '.config', 'git', 'config'));
  if (home) files.push(join(home, '.gitconfig'));
  return files;
}

/** The GIT_CONFIG_COUNT pairs (`git -c` sets GIT_CONFIG_PARAMETERS instead: declined). */
function commandLineEntries(): ConfigEntry[] {
  const env = process.env;
  if (env.GIT_CONFIG_PARAMETERS || env.GIT_CONFIG) throw new Unsupported('command-line config');
  const count = env.GIT_CONFIG_COUNT;
  if (count === undefined || count === '') return [];
  if (!/^\d+$/.test(count)) throw new Unsupported('bogus count');
  const out: ConfigEntry[] = [];
  for (let i = 0; i < Number(count); i++) {
    const k = env[`GIT_CONFIG_KEY_${i}`];
    const key = k && canonicalKey(k);
    if (!key || /^(include|includeif)\./.test(key)) throw new Unsupported('config key');
    const v = env[`GIT_CONFIG_VALUE_${i}`];
    if (v === undefined) throw new Unsupported('missing value');
    out.push([key, v]);
  }
  return out;
}

/** What an includeIf condition is judged against: the repository's git dir (none for the protected config). */
interface IncludeContext {
  gitDir: string | null;
}

const MAX_INCLUDE_DEPTH = 10;
const GLOB = /[*?[\\]/;

/** git's path interpolation for include paths (`~/`, `%(prefix)/`); undefined: only git can say. */
function interpolatePath(value: string, realHome: boolean): string | undefined {
  if (value.startsWith('%(prefix)/')) {
    const rest = value.slice('%(prefix)/'.length);
    if (rest.startsWith('/')) return rest;
    const prefix = gitPrefix();
    return prefix ? `${prefix}/${rest}` : undefined;
  }
  if (!value.startsWith('~')) return value;
  if (value[1] !== '/' && value.length > 1) return undefined; // ~user
  const home = process.env.HOME;
  if (!home) return undefined;
  let h = home;
  if (realHome) {
    try {
      h = realpathSync.native(home);
    } catch {}
  }
  return h + value.slice(1);
}

/**
 * config.c include_condition_is_true, for the literal patterns people write
 * (`gitdir:~/work/`, `gitdir/i:/srv/repo/.git`, `onbranch:release/`); a pattern with glob
 * characters of its own, `hasconfig:` and the like are left to git (Unsupported).
 */
function conditionHolds(cond: string, file: string, ctx: IncludeContext): boolean {
  const gitdir = /^gitdir(\/i)?:(.*)$/s.exec(cond);
  if (gitdir) {
    if (!ctx.gitDir) return false;
    const icase = Boolean(gitdir[1]);
    let pat = gitdir[2];
    if (pat.startsWith('~/')) {
      const p = interpolatePath(pat, true);
      if (p === undefined) throw new Unsupported('include condition');
      pat = p;
    } else if (pat.startsWith('./')) {
      let real = file;
      try {
        real = realpathSync.native(file);
      } catch {}
      pat = real.slice(0, real.lastIndexOf('/')) + pat.slice(1);
    }
    const anywhere = !isAbsolute(pat);
    const dirPrefix = pat.endsWith('/');
    if (!pat || GLOB.test(pat)) throw new Unsupported('include condition pattern');
    const fold = (x: string) => (icase ? x.replace(/[A-Z]/g, (c) => c.toLowerCase()) : x);
    const p = fold(pat);
    const matches = (text: string) => {
      const t = fold(text);
      if (anywhere) return dirPrefix ? t.includes(`/${p}`) : t.endsWith(`/${p}`);
      return dirPrefix ? t.startsWith(p) : t === p;
    };
    let real = ctx.gitDir;
    try {
      real = realpathSync.native(ctx.gitDir);
    } catch {}
    return matches(real) || matches(ctx.gitDir);
  }
  const branch = /^onbranch:(.*)$/s.exec(cond);
  if (branch) {
    if (!ctx.gitDir) return false;
    const pat = branch[1];
    if (!pat || GLOB.test(pat)) throw new Unsupported('include condition pattern');
    const head = readHead(ctx.gitDir);
    if (head === undefined) throw new Unsupported('HEAD');
    if (head?.kind !== 'symbolic') return false;
    // a branch git matches byte for byte, whose name is not UTF-8: git answers
    if (head.branch === null) {
      if (head.ref.toString('latin1').startsWith('refs/heads/')) throw new Unsupported('branch name');
      return false;
    }
    return pat.endsWith('/') ? head.branch.startsWith(pat) : head.branch === pat;
  }
  if (/^(gitdir|gitdir\/i|onbranch|hasconfig):/.test(cond) || cond.includes(':')) throw new Unsupported('include condition');
  return false; // git ignores a condition it does not know
}

/** The entries of one file with its includes followed where git follows them (config.c git_config_include). */
function fileEntries(file: string, eaccesOk: boolean, ctx: IncludeContext, depth: number): ConfigEntry[] {
  const text = readIfExists(file, eaccesOk);
  if (!text) return [];
  const out: ConfigEntry[] = [];
  for (const entry of parseConfigText(text, { includes: 'keep' })) {
    out.push(entry);
    const [key, value] = entry;
    const cond = key.startsWith('includeif.') && key.endsWith('.path') ? key.slice('includeif.'.length, -'.path'.length) : null;
    if (key !== 'include.path' && !(cond !== null && key.length > 'includeif..path'.length && conditionHolds(cond, file, ctx))) continue;
    if (value === null) throw new Unsupported('include without a path');
    const expanded = interpolatePath(value, false);
    if (expanded === undefined) throw new Unsupported('include path');
    const target = isAbsolute(expanded) ? expanded : join(file.slice(0, file.lastIndexOf('/') + 1), expanded);
    if (depth + 1 > MAX_INCLUDE_DEPTH) throw new Unsupported('includes too deep');
    out.push(...fileEntries(target, false, ctx, depth + 1));
  }
  return out;
}

function entriesOf(files: (string | null | undefined)[], repoFiles = 0, ctx: IncludeContext = { gitDir: null }): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  for (const [i, f] of files.entries()) {
    if (f === undefined) throw new Unsupported('config file unknown');
    if (!f) continue;
    out.push(...fileEntries(f, i < files.length - repoFiles, ctx, 0));
  }
  return out;
}

export function toConfigMap(entries: ConfigEntry[]): ConfigMap {
  const map: ConfigMap = new Map();
  for (const [k, v] of entries) {
    const list = map.get(k);
    if (list) list.push(v ?? 'true');
    else map.set(k, [v ?? 'true']);
  }
  return map;
}

/**
 * The "protected" configuration git trusts for safe.directory and safe.bareRepository
 * (config.c read_protected_config): system, global and command line, never the
 * repository's own files. null when only git can read it exactly.
 */
export function readProtectedConfig(): ConfigEntry[] | null {
  try {
    const global = globalConfigFiles();
    return [...entriesOf([systemConfigFile(), ...(global ?? [undefined])]), ...commandLineEntries()];
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

/**
 * Reads the whole configuration as `git config -l` would, or null when only git can say.
 * The worktree file is read only when the repository's extensions.worktreeConfig is on.
 */
export function readConfigInProcess(commonDir: string | null, gitDir: string | null): ConfigMap | null {
  try {
    const files: (string | null | undefined)[] = [systemConfigFile(), ...(globalConfigFiles() ?? [undefined])];
    const userFiles = files.length;
    if (commonDir) {
      files.push(join(commonDir, 'config'));
      if (gitDir) {
        const format = readRepoFormat(gitDir, commonDir);
        if (!format && readIfExists(join(commonDir, 'config')) !== null) return null;
        if (format?.worktreeConfig) files.push(join(gitDir, 'config.worktree'));
      }
    }
    return toConfigMap([...entriesOf(files, files.length - userFiles, { gitDir }), ...commandLineEntries()]);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
