/**
 * git's command line as another process ran it: which git command (`push`, `cherry-pick`)
 * and its arguments, past git's own options. The hooks read it from the processes above them
 * (../process/proc.ts), because git tells a hook neither `--dry-run` nor the sequencer running it.
 */

/** git's own options that take their value as the next argument (`git -C dir`, `git -c k=v`). */
const VALUE_OPTIONS = new Set(['-C', '-c']);

export interface GitCommandLine {
  command: string;
  args: string[];
}

/**
 * The git command in `argv` (`git -C x push -n`, `/usr/lib/git-core/git-push -n`), or null
 * when no git executable is in it or no command follows git's options.
 */
export function gitCommandLine(argv: string[]): GitCommandLine | null {
  for (let g = 0; g < argv.length; g++) {
    const dashed = /(?:^|\/)git-([a-z][a-z0-9-]*)$/.exec(argv[g]);
    if (dashed) return { command: dashed[1], args: argv.slice(g + 1) };
    if (!/(?:^|\/)git$/.test(argv[g])) continue;
    let i = g + 1;
    while (i < argv.length && argv[i].startsWith('-')) i += VALUE_OPTIONS.has(argv[i]) ? 2 : 1;
    return i < argv.length ? { command: argv[i], args: argv.slice(i + 1) } : null;
  }
  return null;
}
