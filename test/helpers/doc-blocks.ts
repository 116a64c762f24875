/**
 * The fenced blocks of the README and the docs/ pages, for the tests that run them
 * (test/e2e/docs.test.ts). A block is run when its language is sh, bash or shell. An HTML
 * comment on the line just before the opening fence says otherwise:
 *
 *   <!-- doc-test: skip (why it cannot run here) -->   not run; the reason is required
 *   <!-- doc-test: exit N (why) -->                     run, and must exit N
 *   <!-- doc-test: file PATH -->                        a block of any language, written to
 *                                                       PATH before the page's blocks run
 *
 * Any other `doc-test:` comment, or one that does not stand right before a fence, is an
 * error, so a misspelt marker cannot silently turn a block off.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DocBlock {
  page: string;
  /** 1-based line of the opening fence */
  line: number;
  lang: string;
  text: string;
  run: boolean;
  skipReason: string | null;
  expectExit: number;
  file: string | null;
}

const SHELL = new Set(['sh', 'bash', 'shell']);
const MARKER = /^<!--\s*doc-test:\s*(.*?)\s*-->\s*$/;

export function docPages(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The page's fenced blocks, markers applied; throws on a marker it cannot read. */
export function parseBlocks(page: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  let pending: { spec: string; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const marker = MARKER.exec(l);
    if (marker) {
      if (pending) throw new Error(`${page}:${i + 1}: two doc-test markers in a row`);
      pending = { spec: marker[1], line: i + 1 };
      continue;
    }
    if (l.replace(/`[^`]*`/g, '').includes('doc-test:')) throw new Error(`${page}:${i + 1}: a doc-test marker must be a whole line of its own: ${l}`);
    const fence = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(l);
    if (!fence) {
      if (pending) throw new Error(`${page}:${pending.line}: a doc-test marker must stand on the line right before a fenced block`);
      continue;
    }
    const close = fence[1];
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith(close)) body.push(lines[j++]);
    if (j >= lines.length) throw new Error(`${page}:${i + 1}: the fenced block is never closed`);
    const lang = fence[2].toLowerCase();
    const block: DocBlock = { page, line: i + 1, lang, text: body.join('\n') + '\n', run: SHELL.has(lang), skipReason: null, expectExit: 0, file: null };
    if (pending) applyMarker(block, pending.spec, `${page}:${pending.line}`);
    pending = null;
    blocks.push(block);
    i = j;
  }
  if (pending) throw new Error(`${page}:${pending.line}: a doc-test marker with no block after it`);
  return blocks;
}

function applyMarker(block: DocBlock, spec: string, where: string): void {
  let m: RegExpExecArray | null;
  if ((m = /^skip\s*\((.*)\)$/.exec(spec))) {
    if (m[1].trim().length < 10) throw new Error(`${where}: a skipped block needs its reason: (why it cannot run here)`);
    block.run = false;
    block.skipReason = m[1].trim();
  } else if ((m = /^exit\s+(\d+)\s*\((.*)\)$/.exec(spec))) {
    if (!block.run) throw new Error(`${where}: 'exit' is for a shell block`);
    if (!m[2].trim()) throw new Error(`${where}: an expected exit code needs its reason`);
    block.expectExit = Number(m[1]);
  } else if ((m = /^file\s+(\S+)$/.exec(spec))) {
    if (m[1].startsWith('/') || m[1].split('/').includes('..')) throw new Error(`${where}: the file must be a path inside the scratch repository`);
    block.file = m[1];
    block.run = false;
  } else {
    throw new Error(`${where}: unknown doc-test marker '${spec}' (skip (reason), exit N (reason), file PATH)`);
  }
}

export function readBlocks(root: string, page: string): DocBlock[] {
  return parseBlocks(page, readFileSync(join(root, page), 'utf8'));
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a page offers: one per heading outside fenced blocks (GitHub numbers repeats). */
export function pageAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | null = null;
  for (const l of text.split('\n')) {
    const f = /^(`{3,}|~{3,})/.exec(l);
    if (f) {
      if (!fence) fence = f[1];
      else if (l.startsWith(fence)) fence = null;
      continue;
    }
    if (fence) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (!h) continue;
    const slug = headingSlug(h[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

/** Relative links `[text](target)` outside fenced blocks and code spans. */
export function relativeLinks(text: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((l, i) => {
    const f = /^(`{3,}|~{3,})/.exec(l);
    if (f) {
      if (!fence) fence = f[1];
      else if (l.startsWith(fence)) fence = null;
      return;
    }
    if (fence) return;
    const prose = l.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(m[1])) continue;
      out.push({ target: m[1], line: i + 1 });
    }
  });
  return out;
}
