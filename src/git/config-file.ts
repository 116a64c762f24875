/**
 * Reads git's configuration in-process: the same files, in the same order, as `git config
 * -l` (system, global, local, worktree, GIT_CONFIG_COUNT pairs). Anything this reader does
 * not handle exactly (include directives, `git -c` parameters) returns null, and the
 * caller asks git itself. Saves a git process on every hook and `show`.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from "node:path";

export type ConfigMap = Map<string, string[]>;

class Unsupported extends Error {}

/** Parses one config file's text into (key, value) pairs; throws Unsupported on includes. */
export function parseConfigText(text: string): [string, string][] {
  const out: [string, string][] = [];
  let section = '';
  let i = 0;
  const n = text.length;
  const skipLine = () => {
    while (i < n && text[i] !== '\n') i++;
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      skipLine();
      continue;
    }
    if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw new Unsupported('bad section');
      const header = text.slice(i + 1, end);
      const m = /^\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*$/.exec(header);
      if (!m) throw new Unsupported('bad section header');
      section = m[2] !== undefined ? `${m[1].toLowerCase()}.${m[2].replace(/\\(.)/g, '$1')}` : m[1].toLowerCase();
      if (/^(include|includeif)(\.|$)/.test(section)) throw new Unsupported('include');
      i = end + 1;
      continue;
    }
    // name [= value]
    const nm = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256));
    if (!nm || !section) throw new Unsupported('bad line');
    const name = nm[0].toLowerCase();
    i += nm[0].length;
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= n || text[i] === '\n' || text[i] === '#' || text[i] === ';' || text[i] === '\r') {
      out.push([`${section}.${name}`, 'true']);
      skipLine();
      continue;
    }
    if (text[i] !== '=') throw new Unsupported('bad assignment');
    i++;
    let value = '';
    let quoted = false;
    let pendingSpace = '';
    for (; i < n; i++) {
      const ch = text[i];
      if (ch === '\n' && !quoted) break;
      if (ch === '\n' && quoted) throw new Unsupported('newline in quotes');
      if (!quoted && (ch === '#' || ch === ';')) {
        skipLine();
        break;
      }
      if (ch === '"') {
        value += pendingSpace;
        pendingSpace = '';
        quoted = !quoted;
        continue;
      }
      if (ch === '\\') {
        const nx = text[i + 1];
        i++;
        if (nx === '\n') continue; // line continuation
        if (nx === '\r' && text[i + 1] === '\n') {
          i++;
          continue;
        }
        const esc: Record<string, string> = { n: '\n', t: '\t', b: '\b', '\\': '\\', '"': '"' };
        if (!(nx in esc)) throw new Unsupported('bad escape');
        value += pendingSpace + esc[nx];
        pendingSpace = '';
        continue;
      }
      if (!quoted && (ch === ' ' || ch === '\t' || ch === '\r')) {
        // git turns each unquoted blank into one space (config.c parse_value).
        if (value.length) pendingSpace += ch === '\r' ? '' : ' ';
        continue;
      }
      value += pendingSpace + ch;
      pendingSpace = '';
    }
    if (quoted) throw new Unsupported('unterminated quote');
    out.push([`${section}.${name}`, value]);
  }
  return out;
}

function readIfExists(path: string): string | null {
  // Most of git's config files do not exist on a given machine: no exception for that.
  if (!statSync(path, { throwIfNoEntry: false })) return null;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw new Unsupported('unreadable');
  }
}

/** The config files git reads, in order (git-config(1) "FILES"). */
function configFiles(commonDir: string | null, gitDir: string | null): (string | null)[] {
  const env = process.env;
  const files: (string | null)[] = [];
  if (!env.GIT_CONFIG_NOSYSTEM || env.GIT_CONFIG_NOSYSTEM === '0' || env.GIT_CONFIG_NOSYSTEM === 'false') files.push(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL !== undefined) files.push(env.GIT_CONFIG_GLOBAL || null);
  else {
    const home = env.HOME || process.getBuiltinModule('node:os').homedir();
    files.push(join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'), join(home, '.gitconfig'));
  }
  if (commonDir) files.push(join(commonDir, 'config'));
  return files.concat(gitDir && commonDir ? [join(gitDir, 'config.worktree')] : []);
}

/**
 * Reads the whole configuration, or null when only git can say (includes, `git -c`,
 * GIT_CONFIG). `worktreeConfig` files are read only when extensions.worktreeConfig is on.
 */
export function readConfigInProcess(commonDir: string | null, gitDir: string | null): ConfigMap | null {
  const env = process.env;
  if (env.GIT_CONFIG_PARAMETERS || env.GIT_CONFIG) return null;
  try {
    const map: ConfigMap = new Map();
    const add = (k: string, v: string) => {
      const key = k.toLowerCase();
      const list = map.get(key);
      if (list) list.push(v);
      else map.set(key, [v]);
    };
    for (const f of configFiles(commonDir, gitDir)) {
      if (!f) continue;
      const isWorktreeFile = f.endsWith('config.worktree');
      if (isWorktreeFile && map.get('extensions.worktreeconfig')?.at(-1) !== 'true') continue;
      const text = f === '/dev/null' ? null : readIfExists(f);
      if (text) for (const [k, v] of parseConfigText(text)) add(k, v);
    }
    const count = Number(env.GIT_CONFIG_COUNT ?? 0);
    for (let i = 0; i < count; i++) {
      const k = env[`GIT_CONFIG_KEY_${i}`];
      if (k) add(k, env[`GIT_CONFIG_VALUE_${i}`] ?? '');
    }
    return map;
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

/** Reads one file's config (for repository discovery: core.bare, extensions). */
export function readRepoConfig(commonDir: string): ConfigMap | null {
  try {
    const text = readIfExists(join(commonDir, 'config'));
    const map: ConfigMap = new Map();
    for (const [k, v] of text ? parseConfigText(text) : []) map.set(k.toLowerCase(), [...(map.get(k.toLowerCase()) ?? []), v]);
    return map;
  } catch {
    return null;
  }
}

