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

/** Undoes what earlier versions added (`[features] codex_hooks = true`, and `previous`, the line it replaced): the line it added goes (and a `[features]` table it added, when left empty), or the old line comes back. */
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
