/** Helpers for the work-item end-to-end tests. */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { TestRepo } from './repo.js';

export const SEED_BEGIN = '<!-- SEED:BEGIN -->';

/**
 * Fills a rendered skeleton: the placeholders outside SEED, in order (Goal, Done, Where it
 * stopped, Next steps, Open questions, Guards, References), get `values[i]` or a default.
 */
export function fillDoc(text: string, values: (string | undefined)[] = []): string {
  const at = text.indexOf(SEED_BEGIN);
  let i = 0;
  const head = text.slice(0, at).replace(/\{\{[^{}\n]*\}\}/g, () => values[i++] ?? `filled ${i}`);
  return head + text.slice(at);
}

/** The text between the SEED markers. */
export function seedSection(text: string): string {
  const m = /<!-- SEED:BEGIN -->\n([\s\S]*?)<!-- SEED:END -->/.exec(text);
  return m ? m[1] : '';
}

/** Every file under `dir` (symlinks as links) with a hash of its bytes: equal maps mean nothing changed. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(dir, p), st.isSymbolicLink() ? 'link' : createHash('sha1').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** A receipt as stored in the notes, read with native git. */
export function storedReceipt(repo: TestRepo, id: string): any {
  return JSON.parse(repo.git('show', `refs/notes/handoff:receipts/${id}.json`));
}

/** A record as stored in the notes, read with native git. */
export function storedItem(repo: TestRepo, path: string): any {
  return JSON.parse(repo.git('show', `refs/notes/handoff:${path}`));
}

/** `git hash-object` of the document with its SEED section emptied, computed by native git. */
export function nativeDocHash(repo: TestRepo, text: string): string {
  const emptied = text.replace(/(<!-- SEED:BEGIN -->\n)[\s\S]*?(<!-- SEED:END -->)/, '$1$2');
  const r = repo.gitRaw(['hash-object', '--stdin'], { input: emptied });
  return r.stdout.trim();
}
