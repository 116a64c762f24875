/**
 * Output: human text through one painter that honours NO_COLOR and non-TTY, machine
 * output as one JSON document. Writes go straight to file descriptors 1 and 2: creating
 * `process.stdout` loads Node's whole stream stack, a measurable part of a hook's budget.
 */
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Painter } from '../core/bookmark.js';
import type { Io } from '../app/io.js';
import { InvalidInput } from '../errors.js';
import { jsonVisible, visibleText } from '../core/visible-text.js';

/**
 * `tty.isatty`, asked only of a character device: loading `node:tty` costs Node's network
 * stack, and files, pipes and /dev/null (a Linux memory device, major 1) are never terminals.
 */
function isatty(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    if (process.platform === 'linux' && Math.floor(st.rdev / 256) % 4096 === 1) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

export function colorEnabled(fd = 1): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  return isatty(fd);
}

function painter(color: boolean): Painter {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { heading: wrap('1'), dim: wrap('2'), warn: wrap('33') };
}

/** Writes all of `text` to `fd`, falling back to the stream when the descriptor is non-blocking. */
function writeAll(fd: 1 | 2, text: string): void {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(fd, buf, off);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw e;
    (fd === 1 ? process.stdout : process.stderr).write(buf.subarray(off));
  }
}

export function processIo(): Io {
  // Looked up on first use: `node:tty` loads Node's net and stream stack, which a hook that
  // prints one plain line to stderr never needs.
  let color: boolean | undefined;
  let paint: Painter | undefined;
  let stdinIsTTY: boolean | undefined;
  let terminal: boolean | undefined;
  return {
    out: (t) => writeAll(1, t),
    // stderr is for people only (errors name what a note or a branch holds): shown visibly
    err: (l) => writeAll(2, visibleText(l.endsWith('\n') ? l : `${l}\n`)),
    json: (doc) => writeAll(1, `${jsonVisible(JSON.stringify(doc, null, 2))}\n`),
    get color() {
      return (color ??= colorEnabled(1));
    },
    get paint() {
      return (paint ??= painter(this.color));
    },
    get stdinIsTTY() {
      return (stdinIsTTY ??= isatty(0));
    },
    get terminal() {
      return (terminal ??= isatty(1) && isatty(2));
    },
  };
}

/**
 * The one stdin reader: all of stdin's bytes (none from a terminal or a closed stdin), or null
 * when stdin is a stream that failed while being read. Files, pipes and /dev/null are read
 * directly; only sockets need the stream machinery.
 */
export async function readStdinBytes(io: Io): Promise<Buffer | null> {
  if (io.stdinIsTTY) return Buffer.alloc(0);
  try {
    const st = fstatSync(0);
    if (st.isFile() || st.isFIFO() || st.isCharacterDevice()) return readFileSync(0);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EBADF') return Buffer.alloc(0);
    if (code !== 'EAGAIN') throw e;
  }
  const chunks: Buffer[] = [];
  try {
    for await (const c of process.stdin) chunks.push(c as Buffer);
  } catch {
    return null;
  }
  return Buffer.concat(chunks);
}

/** An input document on stdin; null when there is none (a terminal, nothing or only white space, a failed stream). */
export async function readStdin(io: Io): Promise<Buffer | null> {
  const buf = await readStdinBytes(io);
  return buf === null || buf.length === 0 || buf.toString('utf8').trim() === '' ? null : buf;
}

/** An input document named on the command line (relative to `cwd`); one line naming the file when it cannot be read. */
export function readInputFile(cwd: string, file: string): Buffer {
  try {
    return readFileSync(resolve(cwd, file));
  } catch (e) {
    throw new InvalidInput(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}
