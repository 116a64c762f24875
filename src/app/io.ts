/**
 * Where a use case's human and machine output goes. The process's own descriptors are one
 * implementation (cli/io.ts); tests pass one that records.
 */
import type { Painter } from '../core/bookmark.js';

export interface Io {
  out(text: string): void;
  err(line: string): void;
  json(doc: unknown): void;
  color: boolean;
  paint: Painter;
  stdinIsTTY: boolean;
  /** stdout and stderr both reach a terminal: a person reads them, not a script or a hook */
  terminal?: boolean;
}
