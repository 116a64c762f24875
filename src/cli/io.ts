/**
 * Output: human text through one painter that honours NO_COLOR and non-TTY, machine
 * output as one JSON document.
 */
import type { Painter } from '../core/bookmark.js';

export interface Io {
  out(text: string): void;
  err(line: string): void;
  json(doc: unknown): void;
  color: boolean;
  paint: Painter;
  stdinIsTTY: boolean;
}

export function colorEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY);
}

function painter(color: boolean): Painter {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { heading: wrap('1'), dim: wrap('2'), warn: wrap('33') };
}

export function processIo(): Io {
  const color = colorEnabled();
  return {
    out: (t) => void process.stdout.write(t),
    err: (l) => void process.stderr.write(l.endsWith('\n') ? l : `${l}\n`),
    json: (doc) => void process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`),
    color,
    paint: painter(color),
    stdinIsTTY: Boolean(process.stdin.isTTY),
  };
}

/** Reads all of stdin; resolves null when stdin is a terminal or empty (DESIGN.md "write input"). */
export async function readStdin(io: Io): Promise<Buffer | null> {
  if (io.stdinIsTTY) return null;
  const chunks: Buffer[] = [];
  try {
    for await (const c of process.stdin) chunks.push(c as Buffer);
  } catch {
    return null;
  }
  const buf = Buffer.concat(chunks);
  return buf.length === 0 || buf.toString('utf8').trim() === '' ? null : buf;
}
