/**
 * `git handoff view --html FILE` (docs/view.md "The file"): one self-contained page, its
 * script and style allowed by hash, nothing loaded from anywhere, the data in a JSON block
 * that no note can break out of; shared versions only unless asked, written atomically, a
 * folder or a FIFO refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const HOSTILE = 'bad </script><script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) \x1b]52;c;aGk=\x07 <!-- end';

function parts(html: string) {
  const data = /<script type="application\/json" id="handoff-data">([^]*?)<\/script>/.exec(html)![1];
  const scripts = [...html.matchAll(/<script>([^]*?)<\/script>/g)].map((m) => m[1]);
  const style = /<style>([^]*?)<\/style>/.exec(html)![1];
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1];
  return { data, scripts, style, csp };
}
/** The document a file's data block holds, gzipped (src/app/view/page.ts `packedData`). */
function embedded(html: string): any {
  const packed = JSON.parse(parts(html).data);
  expect(Object.keys(packed)).toEqual(['format', 'encoding', 'data']);
  expect(packed).toMatchObject({ format: 'git-handoff-view', encoding: 'gzip+base64' });
  return JSON.parse(gunzipSync(Buffer.from(packed.data, 'base64')).toString('utf8'));
}
const sha = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

describe('git handoff view --html', () => {
  let repo: TestRepo;
  let out: string;
  let html: string;

  beforeAll(() => {
    repo = TestRepo.init();
    repo.env.XDG_CONFIG_HOME = tempDir('handoff-xdg-view-html-');
    repo.commit('feat: one', { 'a.txt': '1\n' });
    expect(handoff(repo, ['write', '--summary', HOSTILE]).code).toBe(0);
    expect(handoff(repo, ['write', '--summary', 'a plain second version']).code).toBe(0);
    expect(handoff(repo, ['key', 'new']).code).toBe(0);
    expect(handoff(repo, ['write', '--summary', 'PRIVATE-WORDS', '--private']).code).toBe(0);
    out = join(tempDir('handoff-view-html-'), 'view.html');
    const r = handoff(repo, ['view', '--html', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^wrote .*view\.html: 2 versions, \d+ KiB; 1 encrypted version left out \(--include-encrypted adds those you can read\)\n$/);
    html = readFileSync(out, 'utf8');
  });

  it('is self-contained: no asset from anywhere, a CSP allowing exactly its one script and style by hash, no network', () => {
    const { scripts, style, csp } = parts(html);
    expect(scripts).toHaveLength(1);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${sha(scripts[0])}`);
    expect(csp).toContain(`style-src ${sha(style)}`);
    expect(csp).toContain("img-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(html).not.toMatch(/<(link|img|iframe|object|embed|base)\b/i);
    expect(html).not.toMatch(/\s(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(style).not.toMatch(/url\(|@import/i);
  });

  it('holds the note text only inside the JSON block, with every < escaped, so it renders as text and runs nothing', () => {
    const { data } = parts(html);
    expect(data).not.toContain('<');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('\x1b');
    const doc = embedded(html);
    expect(doc.format).toBe('git-handoff-view');
    const rows = doc.versions;
    expect(rows.map((r: any) => r.summary)).toEqual(['a plain second version', HOSTILE.replace('\x1b]52;c;aGk=\x07', '^[]52;c;aGk=^G')]);
    expect(doc.handoffs[rows[1].version].summary).toContain('</script><script>alert(1)</script>');
    expect(rows.map((r: any) => r.version)).toEqual(
      handoff(repo, ['log', '--all', '--json'])
        .json.versions.filter((v: any) => v.visibility === 'shared')
        .map((v: any) => v.version),
    );
  });

  it('leaves encrypted versions out by default; --include-encrypted adds the ones its maker can read, and says so', () => {
    expect(html).not.toContain('PRIVATE-WORDS');
    expect(JSON.stringify(embedded(html))).not.toContain('PRIVATE-WORDS');
    expect(embedded(html)).toMatchObject({ include_encrypted: false, encrypted: 0, omitted: 1 });
    const file = join(tempDir('handoff-view-html-enc-'), 'all.html');
    const r = handoff(repo, ['view', '--html', file, '--include-encrypted', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ ok: true, file, versions: 3, encrypted: 1, omitted: 0 });
    const doc = embedded(readFileSync(file, 'utf8'));
    expect(doc).toMatchObject({ include_encrypted: true, encrypted: 1, omitted: 0 });
    expect(doc.versions[0]).toMatchObject({ summary: 'PRIVATE-WORDS', visibility: 'private', readable: true });
  });

  it('writes atomically (no temporary file left), and refuses a folder or a FIFO in one line (exit 1), writing nothing', () => {
    const dir = tempDir('handoff-view-html-bad-');
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const fifo = join(dir, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [path, what] of [
      [folder, 'a folder'],
      [fifo, 'not a regular file'],
    ]) {
      const r = handoff(repo, ['view', '--html', path]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`git handoff: refusing the view file: ${path} is ${what}\n`);
    }
    expect(readdirSync(dir).sort()).toEqual(['a-fifo', 'a-folder']);
    expect(readdirSync(join(out, '..'))).toEqual(['view.html']);
    const again = handoff(repo, ['view', '--html', out]);
    expect(again.code).toBe(0);
    expect(readdirSync(join(out, '..'))).toEqual(['view.html']);
    expect(handoff(repo, ['view', '--html', out, '--port', '1']).code).toBe(2);
    expect(handoff(repo, ['view', '--include-encrypted']).code).toBe(2);
  });
});
