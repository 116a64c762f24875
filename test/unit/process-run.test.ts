import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { firstLine, run, tryRun } from '../../src/process/run.js';

// sh, not node: a shell starts in a millisecond where node takes a hundred on a busy machine.
const sh = 'sh';

describe('the one process runner', () => {
  it('collects stdout, stderr and the exit code without throwing (tryRun)', async () => {
    const r = await tryRun(sh, ['-c', 'printf out; printf "\\n  why \\n" >&2; exit 3']);
    expect(r).toEqual({ code: 3, stdout: Buffer.from('out'), stderr: '\n  why \n' });
    expect(firstLine(r.stderr)).toBe('why');
  });

  it('throws the caller’s error on a non-zero exit, and returns the result on 0 (run)', async () => {
    const failure = (r: { code: number }) => new Error(`exit ${r.code}`);
    await expect(run(sh, ['-c', 'exit 2'], { failure })).rejects.toThrow('exit 2');
    expect((await run(sh, ['-c', 'printf ok'], { failure })).stdout.toString()).toBe('ok');
  });

  it('feeds text, bytes or a stream on stdin, merges env over this process’s, honours cwd', async () => {
    const echo = ['-c', 'exec cat'];
    expect((await tryRun(sh, echo, { input: 'text' })).stdout.toString()).toBe('text');
    expect((await tryRun(sh, echo, { input: Buffer.from('bytes') })).stdout.toString()).toBe('bytes');
    expect((await tryRun(sh, echo, { input: Readable.from([Buffer.from('a'), Buffer.from('b')]) })).stdout.toString()).toBe('ab');
    const env = await tryRun(sh, ['-c', 'printf "%s:%s:%s" "$RUN_TEST_X" "${PATH:+path}" "$(pwd)"'], { env: { RUN_TEST_X: 'x' }, cwd: '/' });
    expect(env.stdout.toString()).toBe('x:path:/');
  });

  it('stops a program that runs past its deadline, and says so', async () => {
    const r = await tryRun(sh, ['-c', 'exec sleep 20'], { deadlineMs: 100 });
    expect(r.stopped).toBe('deadline');
    expect(r.code).not.toBe(0);
  });

  it('is not held past its deadline by a program the child left running with the pipes open', async () => {
    // The grandchild keeps stdout and stderr open for 30 s; the call must still end.
    const r = await tryRun(sh, ['-c', 'sleep 30 & echo $!; exec sleep 20'], { deadlineMs: 200 });
    try {
      expect(r.stopped).toBe('deadline');
      expect(r.code).not.toBe(0);
    } finally {
      const pid = Number(r.stdout.toString().trim());
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  it('reads what a child wrote before it exited, even when a program it left running keeps the pipes', async () => {
    const r = await tryRun(sh, ['-c', 'sleep 30 & echo $!; printf done >&2']);
    try {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('done');
    } finally {
      const pid = Number(r.stdout.toString().trim());
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  it('stops a program that stays silent past stallMs', async () => {
    const r = await tryRun(sh, ['-c', 'printf x; exec sleep 20'], { stallMs: 300 });
    expect(r.stopped).toBe('stall');
    expect(r.stdout.toString()).toBe('x');
  });

  it('rejects with the operating system’s error when the program cannot start', async () => {
    await expect(tryRun('git-handoff-no-such-program', [])).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(run('git-handoff-no-such-program', [], { failure: () => new Error('never') })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
