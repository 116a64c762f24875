/**
 * Config values that cannot be used (`handoff.staleDays abc`, an invalid regex in
 * `handoff.secrets.allow`) are never ignored in silence: each gives one warning naming the
 * key, the value and what is used instead. The entry point prints them once per process.
 */
// Each command is a bundle of its own (scripts/build.mjs), so the list lives on globalThis
// for the entry point's copy of this module to see what the command's copy recorded.
const SLOT = Symbol.for('git-handoff.config-warnings');
const pending: Map<string, string> = ((globalThis as Record<symbol, unknown>)[SLOT] as Map<string, string> | undefined) ?? new Map<string, string>();
(globalThis as Record<symbol, unknown>)[SLOT] = pending;

/** Records a warning about `key`'s value (once per key and value). */
export function noteConfigWarning(key: string, value: string, message: string): void {
  const id = `${key.toLowerCase()}\0${value}`;
  if (!pending.has(id)) pending.set(id, message);
}

/** The warnings recorded so far, each once; clears them. */
export function takeConfigWarnings(): string[] {
  const out = [...pending.values()];
  pending.clear();
  return out;
}

/** A multi-valued key whose values are regular expressions: an invalid one is matched literally. */
const REGEX_KEYS = new Set(['handoff.secrets.allow']);

export function checkListValues(key: string, values: string[]): void {
  if (!REGEX_KEYS.has(key.toLowerCase())) return;
  for (const v of values) {
    try {
      new RegExp(v);
    } catch (e) {
      const why = String((e as Error).message).replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
      noteConfigWarning(key, v, `${key} '${v}' is not a valid regular expression (${why}); it is matched as literal text instead`);
    }
  }
}
