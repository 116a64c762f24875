/**
 * The user's age identity file (docs/privacy.md): `$XDG_CONFIG_HOME/git-handoff/identity.txt`
 * (default `~/.config/git-handoff/identity.txt`) or the file `handoff.identity` names, in
 * age-keygen's format. Made with mode 0600, never over an existing file; read only when no
 * one but its owner can read it.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { KeyProblem } from '../errors.js';

const MAX_IDENTITY_BYTES = 64 * 1024;

/** Where `key new` puts the identity, and where readers look when `handoff.identity` is not set. */
export function defaultIdentityPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(base, 'git-handoff', 'identity.txt');
}

/**
 * The text of an identity file; null when there is none. A file that group or others may
 * read (or that is no regular file) is refused in one line naming the fix.
 */
export function readIdentityFile(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new KeyProblem(`cannot read the age identity ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new KeyProblem(`the age identity ${path} is not a regular file`);
    if (st.mode & 0o077)
      throw new KeyProblem(
        `the age identity ${path} may be read by others (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}); run 'chmod 600 ${path}' (and think whether the key has leaked)`,
      );
    if (st.size > MAX_IDENTITY_BYTES) throw new KeyProblem(`the age identity ${path} is larger than ${MAX_IDENTITY_BYTES} bytes: not an identity file`);
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes a new identity file with mode 0600; refused when the file exists (nothing is overwritten). */
export function createIdentityFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST')
      throw new KeyProblem(`an age identity already exists at ${path}; it was left as it is ('git handoff key show' prints its public key)`);
    throw new KeyProblem(`cannot create the age identity ${path}: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
