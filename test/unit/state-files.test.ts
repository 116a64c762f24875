import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporaryPath, writeFileAtomic } from '../../src/state/atomic-write.js';
import { jsonText, readJsonFile, writeJsonFile } from '../../src/state/json-file.js';

const root = mkdtempSync(join(tmpdir(), 'handoff-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => {
  const d = join(root, String(n++));
  mkdirSync(d);
  return d;
};

// Five helpers became one. Their rules differed; the one kept: a hidden temporary file
// beside the target, unique per process and call; parent folders created; a mode given is
// applied exactly (chmod, as the install records had it); on failure the temporary file is
// removed (as the document writer did) and the error is the caller's.
describe('the one atomic write', () => {
  it('writes text or bytes whole, creating the parent folders, leaving nothing beside', () => {
    const d = fresh();
    writeFileAtomic(join(d, 'a', 'b', 'f.txt'), 'one');
    writeFileAtomic(join(d, 'a', 'b', 'f.txt'), Buffer.from('two'));
    expect(readFileSync(join(d, 'a', 'b', 'f.txt'), 'utf8')).toBe('two');
    expect(readdirSync(join(d, 'a', 'b'))).toEqual(['f.txt']);
  });

  it('applies a given mode exactly, whatever the umask', () => {
    const d = fresh();
    const old = process.umask(0o077);
    try {
      writeFileAtomic(join(d, 'hook'), '#!/bin/sh\n', { mode: 0o755 });
    } finally {
      process.umask(old);
    }
    expect(statSync(join(d, 'hook')).mode & 0o7777).toBe(0o755);
  });

  it('on failure throws and leaves no temporary file', () => {
    const d = fresh();
    mkdirSync(join(d, 'target', 'inside'), { recursive: true }); // a folder where the file should go
    expect(() => writeFileAtomic(join(d, 'target'), 'x')).toThrow();
    expect(readdirSync(d)).toEqual(['target']);
  });

  it('names its temporary file hidden, beside the target, different on every call', () => {
    const a = temporaryPath('/x/y/state.json');
    expect(a).toMatch(new RegExp(`^/x/y/\\.state\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(temporaryPath('/x/y/state.json')).not.toBe(a);
  });
});

// Five readers became one: absent, unreadable or damaged is null (no reader threw).
describe('the one JSON state-file store', () => {
  it('reads what it wrote, indented or on one line, ending in a newline', () => {
    const d = fresh();
    writeJsonFile(join(d, 'r.json'), { a: [1] });
    expect(readFileSync(join(d, 'r.json'), 'utf8')).toBe('{\n  "a": [\n    1\n  ]\n}\n');
    expect(readJsonFile(join(d, 'r.json'))).toEqual({ a: [1] });
    writeJsonFile(join(d, 'c.json'), { a: 1 }, { compact: true });
    expect(readFileSync(join(d, 'c.json'), 'utf8')).toBe('{"a":1}\n');
    expect(jsonText([1], true)).toBe('[1]\n');
  });

  it('answers null for an absent, damaged or unreadable file', () => {
    const d = fresh();
    expect(readJsonFile(join(d, 'none.json'))).toBeNull();
    writeFileSync(join(d, 'bad.json'), '{"a":');
    expect(readJsonFile(join(d, 'bad.json'))).toBeNull();
    mkdirSync(join(d, 'dir.json'));
    expect(readJsonFile(join(d, 'dir.json'))).toBeNull();
  });
});
