/**
 * The `[features] codex_hooks = true` line of `.codex/config.toml` that earlier versions
 * added (pure: text in, text out). Codex 0.169 and later run hooks by default and warn
 * about the line, so uninstall and init take it out again. Kept apart from settings.ts so
 * the agent hooks, which need those settings' names, do not load the TOML reader.
 */
import type { TextChange } from './settings.js';
import { tomlTables } from './toml.js';

/** The lines of the `[features]` table (its header, and the end exclusive), as the one TOML reader finds tables. */
function featuresTable(text: string): { at: number; end: number } | null {
  const t = tomlTables(text).find((s) => !s.array && s.keys.length === 1 && s.keys[0] === 'features');
  return t ? { at: t.start, end: t.end } : null;
}
const CODEX_HOOKS = /^\s*codex_hooks\s*=\s*(\S+)/;

/** What earlier versions wrote: `[features] codex_hooks = true` in `.codex/config.toml` (deprecated since Codex 0.169, which runs hooks by default). Init no longer calls it; it stays so tests can lay down such an install and `disableCodexHooks` can be checked against it. */
export function enableCodexHooks(text: string | null): TextChange & { previous: string | null } {
  const src = text ?? '';
  const lines = src.split('\n');
  const table = featuresTable(src);
  if (table) {
    const { at, end } = table;
    for (let i = at + 1; i < end; i++) {
      const m = CODEX_HOOKS.exec(lines[i]);
      if (!m) continue;
      if (m[1] === 'true') return { text, changed: false, previous: 'true' };
      const was = lines[i];
      lines[i] = 'codex_hooks = true';
      return { text: lines.join('\n'), changed: true, previous: was };
    }
    lines.splice(at + 1, 0, 'codex_hooks = true');
    return { text: lines.join('\n'), changed: true, previous: null };
  }
  const sep = src === '' ? '' : src.endsWith('\n\n') ? '' : src.endsWith('\n') ? '\n' : '\n\n';
  return { text: `${src}${sep}[features]\ncodex_hooks = true\n`, changed: true, previous: null };
}

/** Undoes `enableCodexHooks`: the line it added goes (and a `[features]` table it added, when left empty), or the old line comes back. */
export function disableCodexHooks(text: string | null, previous: string | null, createdByInit: boolean): TextChange {
  if (text === null) return { text, changed: false };
  const lines = text.split('\n');
  const table = featuresTable(text);
  if (!table) return { text, changed: false };
  const { at, end } = table;
  const i = lines.findIndex((l, k) => k > at && k < end && /^codex_hooks = true$/.test(l));
  if (i < 0 || previous === 'true') return { text, changed: false };
  if (previous !== null) lines[i] = previous;
  else lines.splice(i, 1);
  let out = lines.join('\n');
  // the table we added, now empty, and the blank line before it
  out = out.replace(/(^|\n)\n?\[features\]\n(?=\[|$)/, '$1');
  if (createdByInit && out.trim() === '') return { text: null, changed: true };
  return { text: out, changed: true };
}
