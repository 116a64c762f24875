/**
 * What `show` and `write` of an encrypted handoff load (issue 26: show of an encrypted one
 * at most 1.3x a shared one). age-encryption, given bytes, collects its output through
 * `new Response(stream)`, which loads Node's whole fetch implementation (undici, about 30 ms
 * of a 110 ms show): src/core/age.ts hands it streams and reads them itself.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Fleet } from '../helpers/fleet.js';
import { handoff } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';
import { asUser, newKey } from '../helpers/privacy.js';

it('write --private and show of it decrypt without loading undici (fetch), and read back the text', () => {
  const [ada] = new Fleet(1).clones.map((c) => asUser(c, 'ada'));
  newKey(ada);
  const probe = join(tempDir('handoff-modules-'), 'probe.cjs');
  writeFileSync(probe, `process.on('exit', () => process.stderr.write('undici loaded: ' + process.moduleLoadList.some((m) => /undici/.test(m)) + '\\n'));\n`);
  const env = { NODE_OPTIONS: `--require ${probe}` };
  const w = handoff(ada, ['write', '--private', '--summary', 'Private: the lexer waits for the parser.'], { env });
  expect(w.code, w.stderr).toBe(0);
  expect(w.stderr).toContain('undici loaded: false');
  const s = handoff(ada, ['show'], { env });
  expect(s.code, s.stderr).toBe(0);
  expect(s.stdout).toContain('Private: the lexer waits for the parser.');
  expect(s.stderr).toContain('undici loaded: false');
  expect(s.stderr).not.toContain('undici loaded: true');
});
