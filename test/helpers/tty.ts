/**
 * Runs the installed CLI as a person at a terminal does: stdin and stdout on one real
 * pseudo-terminal, stderr on another (Python's pty module; Node has none), so a test can
 * tell what went to which while all three are terminals. Nothing is typed on stdin.
 */
import { spawnSync } from 'node:child_process';
import { cliPath } from './cli.js';
import type { TestRepo } from './repo.js';

const RUNNER = String.raw`
import json, os, pty, select, subprocess, sys
outs = [pty.openpty(), pty.openpty()]
p = subprocess.Popen(sys.argv[1:], stdin=outs[0][1], stdout=outs[0][1], stderr=outs[1][1])
for _, slave in outs: os.close(slave)
got = [b"", b""]
open_fds = {outs[0][0]: 0, outs[1][0]: 1}
while open_fds:
    ready, _, _ = select.select(list(open_fds), [], [], 30)
    if not ready: break
    for fd in ready:
        try: chunk = os.read(fd, 65536)
        except OSError: chunk = b""
        if chunk: got[open_fds[fd]] += chunk
        else: del open_fds[fd]
code = p.wait(timeout=30)
print(json.dumps({"code": code, "stdout": got[0].decode(), "stderr": got[1].decode()}))
`;

export interface TtyResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `git handoff ...` with stdout and stderr on terminals (CR LF as the terminal writes them, turned back into LF). */
export function handoffOnTty(repo: TestRepo, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): TtyResult {
  const env = { ...repo.tick(), PATH: cliPath(), ...opts.env };
  const r = spawnSync('python3', ['-c', RUNNER, 'git', 'handoff', ...args], { cwd: repo.dir, env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`the pty runner failed: ${r.stderr}`);
  const res = JSON.parse(r.stdout) as TtyResult;
  return { code: res.code, stdout: res.stdout.replace(/\r\n/g, '\n'), stderr: res.stderr.replace(/\r\n/g, '\n') };
}
