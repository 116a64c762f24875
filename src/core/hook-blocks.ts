/**
 * Text edits for hook managers that own their hook files (docs/hooks.md): a marked
 * block inside a husky hook script, marked commands inside a lefthook config. Pure: text in,
 * text out; adding is idempotent and removing takes back exactly what adding put in.
 */

export const BLOCK_START = '# >>> git-handoff >>>';
export const BLOCK_END = '# <<< git-handoff <<<';
/** The line that marks a hook file written whole by `git handoff init` (githooks/*). */
export const SHIM_MARKER = 'git-handoff hook shim';

/**
 * The shell lines a husky hook script runs for `hook`. Guarded so a teammate without
 * git-handoff is not affected; husky runs the script with `sh -e`, so nothing here may fail.
 */
export function huskyBlock(hook: string): string {
  const find = '[ "${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1';
  const lines = [`${BLOCK_START} (added by \`git handoff init\`; \`git handoff uninstall\` removes it)`];
  if (hook === 'post-rewrite') {
    // Read git's list of rewritten commits once, then hand it on to the rest of the script.
    lines.push(
      'handoff_rewritten=$(cat)',
      `if ${find}; then printf '%s\\n' "$handoff_rewritten" | git-handoff hook ${hook} "$@" || :; fi`,
      'exec <<HANDOFF_REWRITTEN',
      '$handoff_rewritten',
      'HANDOFF_REWRITTEN',
    );
  } else if (hook === 'prepare-commit-msg') {
    lines.push(
      `if ${find} && { [ -d cadence/streaming ] || [ -n "$(git config --get handoff.sweep.strict 2>/dev/null)" ]; }; then`,
      `  git-handoff hook ${hook} "$@" </dev/null || { [ $? -eq 1 ] && exit 1; :; }`,
      'fi',
    );
  } else {
    lines.push(`if ${find}; then git-handoff hook ${hook} "$@" </dev/null || :; fi`);
  }
  lines.push(BLOCK_END);
  return `${lines.join('\n')}\n`;
}

/** Where a block starts and ends (line indexes, end inclusive), or null. */
function findBlock(lines: string[]): [number, number] | null {
  const start = lines.findIndex((l) => l.trimStart().startsWith(BLOCK_START));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.trimStart().startsWith(BLOCK_END));
  return end < 0 ? null : [start, end];
}

export function hasBlock(text: string): boolean {
  return findBlock(text.split('\n')) !== null;
}

/**
 * `text` with `block` in it: an existing block is replaced in place; otherwise the block goes
 * first (after a `#!` line), so an `exit` further down cannot skip it.
 */
export function withBlock(text: string, block: string): string {
  const lines = text.split('\n');
  const at = findBlock(lines);
  const blockLines = block.replace(/\n$/, '').split('\n');
  if (at) {
    lines.splice(at[0], at[1] - at[0] + 1, ...blockLines);
    return lines.join('\n');
  }
  if (text === '') return block;
  const shebang = lines[0].startsWith('#!') ? 1 : 0;
  lines.splice(shebang, 0, ...blockLines);
  return lines.join('\n');
}

/** `text` without our block (and nothing else changed). */
export function withoutBlock(text: string): string {
  const lines = text.split('\n');
  const at = findBlock(lines);
  if (!at) return text;
  lines.splice(at[0], at[1] - at[0] + 1);
  return lines.join('\n');
}

/**
 * The lefthook command for `hook`: arguments as lefthook passes them, stdin for post-rewrite.
 * Like the plain shims: prepare-commit-msg starts no Node outside a repository with
 * cadence/streaming/, and its status 1 (a strict sweep) stops the commit; every other
 * failure of ours lets the commit stand.
 */
export function lefthookCommand(hook: string, indent: string): string[] {
  const args =
    hook === 'prepare-commit-msg' || hook === 'post-checkout'
      ? ' {1} {2} {3}'
      : hook === 'post-rewrite' || hook === 'post-merge'
        ? ' {1}'
        : hook === 'pre-push'
          ? ' {1} {2}'
          : '';
  const guard = '[ "${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1 || exit 0;';
  const stdin = hook === 'post-rewrite' ? '' : ' </dev/null';
  const body =
    hook === 'prepare-commit-msg'
      ? `[ -d cadence/streaming ] || exit 0; ${guard} git-handoff hook ${hook}${args}${stdin}; [ $? -eq 1 ] && exit 1; exit 0`
      : `${guard} git-handoff hook ${hook}${args}${stdin} || :`;
  return [
    `${indent}${indent}${BLOCK_START}`,
    `${indent}${indent}git-handoff:`,
    `${indent}${indent}${indent}run: '${body}'`,
    ...(hook === 'post-rewrite' ? [`${indent}${indent}${indent}use_stdin: true`] : []),
    `${indent}${indent}${BLOCK_END}`,
  ];
}

const TOP_KEY = /^([A-Za-z0-9_-]+|"[^"]*"|'[^']*'):\s*(#.*)?$/;

/**
 * A lefthook config with our command under `hook`'s `commands:`. Text-level, so the user's
 * comments and layout stay as they were; an existing marked command is replaced in place.
 */
export function withLefthookCommand(text: string, hook: string): string {
  const lines = text.split('\n');
  const indentOf = (l: string) => /^(\s*)/.exec(l)![1];
  const firstIndented = lines.find((l) => /^\s+\S/.test(l) && !/^\s*#/.test(l));
  const indent = firstIndented ? indentOf(firstIndented) : '  ';
  const cmd = lefthookCommand(hook, indent);
  const existing = findBlockIn(lines, hook);
  if (existing) {
    const own = indentOf(lines[existing[0]]);
    lines.splice(existing[0], existing[1] - existing[0] + 1, ...cmd.map((l) => own + l.slice(2 * indent.length)));
    return lines.join('\n');
  }
  const keyAt = lines.findIndex((l) => TOP_KEY.test(l) && unquote(l.slice(0, l.indexOf(':'))) === hook);
  if (keyAt < 0) {
    const body = [`${hook}:`, `${indent}commands:`, ...cmd];
    const trimmed = text.replace(/\n*$/, '');
    return `${trimmed}${trimmed ? '\n' : ''}${body.join('\n')}\n`;
  }
  const end = sectionEnd(lines, keyAt);
  const cmdsAt = lines.findIndex((l, i) => i > keyAt && i < end && indentOf(l) === indent && /^\s*commands:\s*(#.*)?$/.test(l));
  if (cmdsAt >= 0) lines.splice(cmdsAt + 1, 0, ...cmd);
  else lines.splice(keyAt + 1, 0, `${indent}commands:`, ...cmd);
  return lines.join('\n');
}

/** A lefthook config without our commands; a hook section we emptied goes too. */
export function withoutLefthookCommands(text: string): string {
  const lines = text.split('\n');
  for (;;) {
    const at = findBlock(lines);
    if (!at) break;
    lines.splice(at[0], at[1] - at[0] + 1);
    // Remove `commands:` and the hook key when our command was all they held.
    const prev = at[0] - 1;
    if (prev >= 0 && /^\s+commands:\s*$/.test(lines[prev]) && !isChild(lines, prev)) {
      lines.splice(prev, 1);
      const key = prev - 1;
      if (key >= 0 && TOP_KEY.test(lines[key]) && !isChild(lines, key)) lines.splice(key, 1);
    }
  }
  const out = lines.join('\n');
  return out.trim() === '' ? '' : out;
}

function isChild(lines: string[], at: number): boolean {
  const base = /^(\s*)/.exec(lines[at])![1].length;
  const next = lines.slice(at + 1).find((l) => l.trim() !== '' && !/^\s*#/.test(l));
  return next !== undefined && /^(\s*)/.exec(next)![1].length > base;
}

function findBlockIn(lines: string[], hook: string): [number, number] | null {
  const keyAt = lines.findIndex((l) => TOP_KEY.test(l) && unquote(l.slice(0, l.indexOf(':'))) === hook);
  if (keyAt < 0) return null;
  const end = sectionEnd(lines, keyAt);
  const at = findBlock(lines.slice(keyAt, end));
  return at ? [at[0] + keyAt, at[1] + keyAt] : null;
}

function sectionEnd(lines: string[], keyAt: number): number {
  for (let i = keyAt + 1; i < lines.length; i++) if (/^\S/.test(lines[i]) && !lines[i].startsWith('#')) return i;
  return lines.length;
}

function unquote(s: string): string {
  return s.replace(/^(["'])(.*)\1$/, '$2');
}

/**
 * The lines someone added to a hook file we wrote whole (`ours`, our shim): `text`'s lines
 * that are not `ours`'s, when every line of `ours` is still there in order; null when one of
 * our lines was changed or taken out (then our part and theirs cannot be told apart).
 */
export function linesAddedTo(ours: string, text: string): string[] | null {
  const mine = ours.replace(/\n$/, '').split('\n');
  const added: string[] = [];
  let i = 0;
  for (const line of text.replace(/\n$/, '').split('\n')) {
    if (i < mine.length && line === mine[i]) i++;
    else added.push(line);
  }
  return i === mine.length ? added : null;
}
