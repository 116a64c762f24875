/**
 * The one atomic file write: the data goes to a temporary file beside the target, then a
 * rename puts it in place, so a reader sees the old file or the new one, never a part. On any
 * failure (full disk, read-only file system) the temporary file is removed and the error is
 * the caller's. Used for local state, install records, hook files, documents and caches.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** the file's mode, exactly (the umask does not apply); else a new file's default */
  mode?: number;
}

/**
 * The temporary file's name: hidden, beside the target (a rename stays on one file system),
 * and unique per process and call, so two writers never share one.
 */
export function temporaryPath(path: string): string {
  // crypto is loaded here, on first use: a static import put it on every start (show, each hook), ~2 ms.
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
  return join(dirname(path), `.${basename(path)}.${process.pid}.${random}.tmp`);
}

/** Writes `data` to `path` atomically, creating the parent folders. */
export function writeFileAtomic(path: string, data: string | Buffer, opts: AtomicWriteOptions = {}): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = temporaryPath(path);
  try {
    if (opts.mode === undefined) writeFileSync(tmp, data);
    else {
      writeFileSync(tmp, data, { mode: opts.mode });
      chmodSync(tmp, opts.mode);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
