/**
 * Legacy JSON receipts, read-only: `.harness/sessions/` and `.harness/eval-runs/`
 * of the work tree. A receipt there is named by its file (`<id>.json`) or by its `id` field.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from '../state/json-file.js';
import { entriesUnder } from '../state/file-walk.js';

export const LEGACY_RECEIPT_DIRS = ['.harness/sessions', '.harness/eval-runs'];
const MAX_DEPTH = 4;
const MAX_FILES = 5000;
const MAX_BYTES = 256 * 1024;

export function legacyReceiptIds(workTree: string): Set<string> {
  const ids = new Set<string>();
  let files = 0;
  for (const d of LEGACY_RECEIPT_DIRS) {
    for (const { path, entry } of entriesUnder(join(workTree, d), MAX_DEPTH)) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      if (files++ >= MAX_FILES) return ids;
      ids.add(entry.name.slice(0, -5));
      try {
        if (statSync(path).size > MAX_BYTES) continue;
        const v = readJsonFile<{ id?: unknown }>(path);
        if (v && typeof v.id === 'string') ids.add(v.id);
      } catch {}
    }
  }
  return ids;
}
