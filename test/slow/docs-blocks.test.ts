/**
 * Every shell block of the docs/ pages runs as written with the packed CLI, in a scratch
 * repository of its page (test/helpers/doc-scratch.ts), page by page; a block that cannot
 * run here carries a marker with its reason (test/helpers/doc-blocks.ts). The README's
 * blocks run in npm test (test/e2e/docs.test.ts).
 */
import { describe, expect, inject, it } from 'vitest';
import { docPages, readBlocks } from '../helpers/doc-blocks.js';
import { docScratch } from '../helpers/doc-scratch.js';

describe('every shell block of docs/ runs as written', () => {
  const root = inject('packageRoot');
  for (const page of docPages(root).filter((p) => p !== 'README.md')) {
    const blocks = readBlocks(root, page);
    const runs = blocks.filter((b) => b.run);
    if (!runs.length) continue;
    it(`${page}: ${runs.length} block(s)`, { timeout: 180_000 }, () => {
      const { sh } = docScratch(
        root,
        blocks.filter((b) => b.file),
      );
      for (const b of runs) {
        const r = sh(b.text);
        expect(r.status, `${page}:${b.line} exited ${r.status}\n${b.text}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(b.expectExit);
      }
    });
  }
});
