/**
 * The only code that runs the GitHub CLI. `gh` is looked up on PATH like any command, so a
 * stand-in placed first on PATH (the tests' fake) is used exactly as the real one would be.
 */
import { GhFailed } from '../errors.js';
import { firstLine, tryRun, type RunResult } from '../process/run.js';

export type GhRunner = (args: string[]) => Promise<string>;

/** Runs `gh <args>` and returns stdout; throws GhFailed on any failure. */
export function runGh(cwd: string): GhRunner {
  return async (args) => {
    let r: RunResult;
    try {
      r = await tryRun('gh', args, { cwd, env: { GH_PROMPT_DISABLED: '1', NO_COLOR: '1' } });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      throw new GhFailed(args, err.code === 'ENOENT' ? 'gh is not installed or not on PATH (https://cli.github.com)' : err.message);
    }
    if (r.code !== 0) throw new GhFailed(args, firstLine(r.stderr) || `exit ${r.code}`);
    return r.stdout.toString('utf8');
  };
}

/** Runs a `gh` read that prints JSON and parses it. */
export async function ghJson<T>(gh: GhRunner, args: string[]): Promise<T> {
  const text = await gh(args);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GhFailed(args, `printed something that is not JSON: ${text.slice(0, 80)}`);
  }
}
