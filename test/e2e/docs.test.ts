/**
 * The README and the docs/ pages say only what is true: every shell block of the README runs
 * as written with the packed CLI (the docs/ pages' blocks: test/slow/docs-blocks.test.ts) (test/helpers/doc-blocks.ts has the markers for a block that cannot
 * run here, each with its reason), the front page's bookmark is what `show` prints, every
 * docs/ page is linked from the front page, every relative link and anchor resolves, and
 * every `handoff.*` key the source reads is in the configuration reference.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { COMMANDS } from '../../src/commands/registry.js';
import { docScratch } from '../helpers/doc-scratch.js';
import { docPages, pageAnchors, parseBlocks, readBlocks, relativeLinks } from '../helpers/doc-blocks.js';

const root = () => inject('packageRoot');
const read = (page: string) => readFileSync(join(root(), page), 'utf8');

describe('doc-test markers', () => {
  it('a skip needs its reason, and an unknown or misplaced marker is an error, never a block turned off', () => {
    expect(parseBlocks('x.md', '<!-- doc-test: skip (needs GitHub and gh auth) -->\n```sh\ngh auth status\n```\n')[0]).toMatchObject({
      run: false,
      skipReason: 'needs GitHub and gh auth',
    });
    expect(() => parseBlocks('x.md', '<!-- doc-test: skip -->\n```sh\nx\n```\n')).toThrow(/unknown doc-test marker/);
    expect(() => parseBlocks('x.md', '<!-- doc-test: skip () -->\n```sh\nx\n```\n')).toThrow(/needs its reason/);
    expect(() => parseBlocks('x.md', '<!-- doc-test: skipp (a typo in the marker) -->\n```sh\nx\n```\n')).toThrow(/unknown doc-test marker/);
    expect(() => parseBlocks('x.md', '<!-- doc-test: skip (needs a server) -->\n\n```sh\nx\n```\n')).toThrow(/right before a fenced block/);
    expect(parseBlocks('x.md', '<!-- doc-test: exit 1 (no match) -->\n```sh\ngit handoff search zzz\n```\n')[0]).toMatchObject({ run: true, expectExit: 1 });
    expect(parseBlocks('x.md', '<!-- doc-test: file a/b.yaml -->\n```yaml\nk: v\n```\n')[0]).toMatchObject({ run: false, file: 'a/b.yaml', text: 'k: v\n' });
    expect(() => parseBlocks('x.md', '<!-- doc-test: file ../up.yaml -->\n```yaml\nk: v\n```\n')).toThrow(/inside the scratch/);
  });

  it('every page reads: markers well formed, every skipped block says why', () => {
    for (const page of docPages(root())) {
      for (const b of readBlocks(root(), page)) if (b.skipReason !== null) expect(b.skipReason.length, `${page}:${b.line}`).toBeGreaterThan(10);
    }
  });
});

describe('the front page', () => {
  it('is under 150 lines and links every docs/ page', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(150);
    const pages = readdirSync(join(root(), 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(10);
    const unlinked = pages.filter((p) => !readme.includes(`](docs/${p})`) && !readme.includes(`](docs/${p}#`));
    expect(unlinked, 'docs/ pages the README does not link').toEqual([]);
  });

  it("keeps the Quick start's two commands, exactly two", () => {
    const quick = readBlocks(root(), 'README.md')[0];
    expect(quick.text).toBe('npm ci && npm install -g "$(npm pack --silent)" && npm run demo\nnpm test\n');
    // CI runs the README's test command.
    expect(read('.ci/run')).toMatch(/^npm test$/m);
  });

  it('shows a real bookmark: what show prints for the handoff.yaml of docs/commands.md, ids and dates aside', () => {
    const shown = readBlocks(root(), 'README.md').find((b) => b.lang === 'text' && b.text.startsWith('handoff '));
    expect(shown, 'a bookmark in a text block').toBeDefined();
    const { sh } = docScratch(root(), []);
    const r = sh('git handoff show');
    expect(r.status, r.stderr).toBe(0);
    const plain = (s: string) => s.replace(/\b[0-9a-f]{7,40}\b/g, 'ID').replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/g, 'DATE');
    expect(plain(shown!.text)).toBe(plain(r.stdout));
  });
});

describe('links', () => {
  it('every relative link of the README and docs/ names a file that exists, and an anchor a heading of that file', () => {
    const broken: string[] = [];
    for (const page of docPages(root())) {
      for (const { target, line } of relativeLinks(read(page))) {
        const [path, anchor] = target.split('#');
        const file = path ? normalize(join(dirname(page), path)) : page;
        const full = join(root(), file);
        if (!existsSync(full)) {
          broken.push(`${page}:${line}: ${target} (no such file)`);
          continue;
        }
        if (anchor && (statSync(full).isDirectory() || !pageAnchors(readFileSync(full, 'utf8')).has(anchor)))
          broken.push(`${page}:${line}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the security page (issue 23)', () => {
  it('says who can write what, what the tool trusts and why, and how to report a vulnerability', () => {
    const headings = read('docs/security.md')
      .split('\n')
      .filter((l) => l.startsWith('## '));
    for (const h of [/^## Threat model/, /^## What the tool trusts, and why$/, /^## Reporting a vulnerability$/])
      expect(
        headings.some((l) => h.test(l)),
        String(h),
      ).toBe(true);
    expect(read('docs/security.md')).toMatch(/privately/);
  });
});

describe('the command reference', () => {
  it('docs/commands.md lists every command', () => {
    const table = read('docs/commands.md')
      .split('\n')
      .filter((l) => l.startsWith('| '));
    const named = new Set(table.flatMap((l) => [...(l.split(' | ')[1] ?? '').matchAll(/`([a-z]+)[ `]/g)].map((m) => m[1])));
    expect(Object.keys(COMMANDS).filter((c) => !named.has(c))).toEqual([]);
  });
});

describe("the source's pointers into the documentation", () => {
  it('name a page that exists, and a README section by a heading it has', () => {
    const readmeHeadings = new Set([...read('README.md').matchAll(/^#+ (.*)$/gm)].map((m) => m[1]));
    const bad: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(join(root(), d), { withFileTypes: true })) {
        const p = `${d}/${e.name}`;
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|mjs)$/.test(e.name)) {
          const text = readFileSync(join(root(), p), 'utf8');
          for (const m of text.matchAll(/README(?:\.md)? "([^"]+)"/g)) if (!readmeHeadings.has(m[1])) bad.push(`${p}: README "${m[1]}"`);
          // a page of ours: not a document a user's repository holds (docs/HANDOFF-<n>.md, docs/division.md in a sweep example)
          for (const m of text.matchAll(/\bdocs\/([a-z][a-z-]*)\.md\b/g))
            if (m[1] !== 'division' && !existsSync(join(root(), `docs/${m[1]}.md`))) bad.push(`${p}: docs/${m[1]}.md`);
        }
      }
    };
    walk('src');
    walk('scripts');
    expect(bad).toEqual([]);
  });
});

describe('the configuration reference', () => {
  it('lists every handoff.* key the source reads', () => {
    const keys = new Set<string>();
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|sh)$/.test(e.name) || d.endsWith('githooks'))
          for (const m of readFileSync(p, 'utf8').matchAll(/['"](handoff\.[a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)*)['"]/g)) keys.add(m[1]);
      }
    };
    walk(join(root(), 'src'));
    walk(join(root(), 'githooks'));
    keys.delete('handoff.lock'); // a file name (refs/notes/handoff.lock), not a key
    expect(keys.size).toBeGreaterThan(10);
    const reference = read('docs/configuration.md');
    expect([...keys].filter((k) => !reference.includes(`| \`${k}\` |`))).toEqual([]);
  });
});

describe('the README runs as written', () => {
  // The docs/ pages' blocks take half a minute: test/slow/docs-blocks.test.ts runs them.
  it('every shell block of README.md', () => {
    const blocks = readBlocks(root(), 'README.md');
    const runs = blocks.filter((b) => b.run);
    expect(runs.length).toBeGreaterThan(2);
    const { sh } = docScratch(
      root(),
      blocks.filter((b) => b.file),
    );
    for (const b of runs) {
      const r = sh(b.text);
      expect(r.status, `README.md:${b.line} exited ${r.status}\n${b.text}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(b.expectExit);
    }
  });
});
