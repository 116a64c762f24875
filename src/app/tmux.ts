/**
 * The few tmux calls the relay makes. A running tmux server does not hand the caller's
 * environment to new sessions, so the session's variables go through `new-session -e`.
 * `handoff.relay.tmuxSocket` (or TMUX_TMPDIR, which tmux reads itself) picks the server.
 */
import { tryRun } from '../process/run.js';
import { ToolMissing } from '../errors.js';

export interface TmuxResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class Tmux {
  constructor(private readonly socket: string | null = null) {}

  run(args: string[]): Promise<TmuxResult> {
    const argv = [...(this.socket ? ['-L', this.socket] : []), ...args];
    return tryRun('tmux', argv).then(
      (r) => ({ code: r.code, stdout: r.stdout.toString(), stderr: r.stderr }),
      (e: NodeJS.ErrnoException) => {
        throw e.code === 'ENOENT' ? new ToolMissing('tmux is not installed (or not on PATH); the relay starts the next session in tmux') : e;
      },
    );
  }

  /** Fails with ToolMissing when tmux cannot run at all. */
  async check(): Promise<void> {
    await this.run(['-V']);
  }

  async hasSession(name: string): Promise<boolean> {
    return (await this.run(['has-session', '-t', `=${name}`])).code === 0;
  }

  /** `tmux new-session -d -s NAME -c DIR -e K=V... COMMAND`. */
  newSession(name: string, cwd: string, env: Record<string, string>, command: string): Promise<TmuxResult> {
    const e = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    return this.run(['new-session', '-d', '-s', name, '-c', cwd, ...e, command]);
  }
}
