/**
 * The package as installed from `npm pack` carries the project's licence and the notices of
 * every package bundled into it: the names are read here from the bundles themselves
 * (esbuild's `// node_modules/...` markers before each module it inlined), not from the
 * build's own list, so a dependency added later cannot go unnamed.
 */
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

describe('licences in the package', () => {
  const installed = join(dirname(inject('binDir')), 'lib/node_modules/git-handoff');
  const source = inject('packageRoot');

  it('LICENSE is the MIT licence package.json names', () => {
    const meta = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(meta.license).toBe('MIT');
    const text = readFileSync(join(installed, 'LICENSE'), 'utf8');
    expect(text).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
  });

  it('THIRD-PARTY-NOTICES.txt names every package bundled into dist/, with its version, licence and licence text', () => {
    const dist = join(installed, 'dist');
    const bundled = new Map<string, string>(); // name -> the folder it was bundled from (under the source tree)
    for (const f of readdirSync(dist).filter((x) => x.endsWith('.cjs'))) {
      for (const [, folder, name] of readFileSync(join(dist, f), 'utf8').matchAll(/^\/\/ ((?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+))\//gm))
        bundled.set(name, folder);
    }
    // the markers are there (an unminified build): the libraries known to be bundled are found
    for (const known of ['js-yaml', 'diff', '@modelcontextprotocol/sdk', 'zod', 'ajv', 'fast-uri']) expect([...bundled.keys()]).toContain(known);
    const notices = readFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const [name, folder] of bundled) {
      const meta = JSON.parse(readFileSync(join(source, folder, 'package.json'), 'utf8'));
      const heading = `${name} ${meta.version} (${meta.license})`;
      expect(notices, name).toContain(`\n${'='.repeat(78)}\n${heading}\n${'='.repeat(78)}\n`);
      const licence = readdirSync(join(source, folder)).find((f) => /^licen[cs]e/i.test(f));
      expect(licence, `${name} ships a licence file`).toBeDefined();
      expect(notices, `${name}'s licence text`).toContain(readFileSync(join(source, folder, licence!), 'utf8').trim());
    }
    expect(existsSync(join(installed, 'LICENSE'))).toBe(true);
  });
});
