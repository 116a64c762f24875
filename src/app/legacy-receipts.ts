/**
 * Legacy JSON receipts, read-only: `.harness/sessions/` and `.harness/eval-runs/`
 * of the work tree. A receipt there is named by its file (`<id>.json`) or by its `id` field.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from '../state/json-file.js';

export const LEGACY_RECEIPT_DIRS = ['.harness/sessions', '.harness/eval-runs'];
const MAX_DEPTH = 4;
const MAX_FILES = 5000;
const MAX_BYTES = 256 * 1024;

export function legacyReceiptIds(workTree: string): Set<string> {
  const ids = new Set<string>();
  let files = 0;
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (files >= MAX_FILES) return;
      const p = join(dir, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.json')) {
        files++;
        ids.add(e.name.slice(0, -5));
        try {
          if (statSync(p).size > MAX_BYTES) continue;
          const v = readJsonFile<{ id?: unknown }>(p);
          if (v && typeof v.id === 'string') ids.add(v.id);
        } catch {}
      }
    }
  };
  for (const d of LEGACY_RECEIPT_DIRS) walk(join(workTree, d), 0);
  return ids;
}
