import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import {
  readScannedNotes,
  recordText,
  scannedNotesPath,
  trustedRecordFile,
  writeScannedNotes,
  type ScanKey,
  ScannedRecord,
} from '../../src/state/scanned-notes.js';
import { tempDir } from '../helpers/repo.js';

const key: ScanKey = { build: 'b'.repeat(64), allow: ['^AKIA[0-9A-Z]{16}$', 'example'] };
const oids = ['a'.repeat(40), '0123456789abcdef0123456789abcdef01234567', 'c'.repeat(40)];
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
/** What a record says about each of `ids`. */
const says = (r: ScannedRecord, ids: string[]) => ids.map((id) => r.has(id));

/** A small deterministic generator of ids (the same every run). */
function idsFrom(seed: number, n: number, width = 40): string[] {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let id = '';
    while (id.length < width) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      id += (x >>> 8).toString(16).padStart(6, '0');
    }
    out.push(id.slice(0, width));
  }
  return out;
}

describe('the record of clean notes: its bytes', () => {
  it('reads back what it wrote (sha-1 and sha-256 ids), and an empty record', () => {
    const r = ScannedRecord.parse(recordText(key, oids), key);
    expect(r.size).toBe(3);
    expect(says(r, oids)).toEqual([true, true, true]);
    expect(says(r, ['b'.repeat(40), 'a'.repeat(39), 'a'.repeat(41), `${'a'.repeat(39)}b`, ''])).toEqual([false, false, false, false, false]);
    const wide = idsFrom(7, 5, 64);
    expect(says(ScannedRecord.parse(recordText(key, wide), key), wide)).toEqual(wide.map(() => true));
    expect(ScannedRecord.parse(recordText(key, []), key).size).toBe(0);
  });

  it('adding ids gives the very bytes a record of the union has, and every lookup agrees with a Set', () => {
    for (const [seed, before, added] of [
      [1, 0, 5],
      [2, 5, 0],
      [3, 300, 40],
      [4, 40, 300],
      [5, 1000, 1],
    ]) {
      const old = idsFrom(seed, before);
      const more = [...idsFrom(seed + 100, added), ...old.slice(0, 3)];
      const r = ScannedRecord.parse(recordText(key, old), key);
      const text = r.with(key, more, null);
      const union = new Set([...old, ...more]);
      if (union.size === new Set(old).size) expect(text).toBeNull();
      else expect(text).toBe(recordText(key, union));
      const back = ScannedRecord.parse(text ?? recordText(key, old), key);
      const asked = [...union, ...idsFrom(seed + 200, 50)];
      for (const look of [back.lookup(1), back.lookup(10_000)]) expect(asked.map(look)).toEqual(asked.map((id) => union.has(id)));
    }
  });

  it('keeps its reach, and takes a new one with or without new ids', () => {
    const tip = 'd'.repeat(40);
    const r = ScannedRecord.parse(recordText(key, oids, tip), key);
    expect(r.reach).toBe(tip);
    expect(says(r, oids)).toEqual([true, true, true]);
    expect(r.with(key, [], tip)).toBeNull();
    expect(r.with(key, [tip], tip)).toBe(recordText(key, [...oids, tip], tip));
    const moved = ScannedRecord.parse(r.with(key, [], oids[0])!, key);
    expect([moved.reach, moved.size]).toEqual([oids[0], 3]);
    expect(ScannedRecord.parse(r.with(key, [], null)!, key).reach).toBeNull();
    expect(ScannedRecord.parse(recordText(key, oids), key).reach).toBeNull();
    const good = recordText(key, oids, tip);
    for (const bad of [good.replace(`reach ${tip}`, `reach ${'d'.repeat(39)}`), good.replace(`reach ${tip}`, 'reach HEAD'), good.replace(`reach ${tip}\n`, '')])
      expect(ScannedRecord.parse(bad, key).size).toBe(0);
    const resummed = (t: string) => {
      const body = t.slice(0, t.lastIndexOf('\n', t.length - 2) + 1);
      return `${body}end 3 40 ${sha(body)}\n`;
    };
    expect(ScannedRecord.parse(resummed(good.replace(`reach ${tip}`, 'reach HEAD')), key).size).toBe(0);
    expect(ScannedRecord.parse(resummed(good.replace(`reach ${tip}`, 'reach -')), key).reach).toBeNull();
  });

  it('belongs to its key alone: another build, another allow list, the same list in another order', () => {
    const text = recordText(key, oids);
    for (const other of [
      { ...key, build: 'c'.repeat(64) },
      { ...key, allow: [] },
      { ...key, allow: [key.allow[0]] },
      { ...key, allow: [...key.allow].reverse() },
      { ...key, allow: [...key.allow, ''] },
    ])
      expect(ScannedRecord.parse(text, other).size).toBe(0);
  });

  it('counts a damaged or foreign text as empty', () => {
    const good = recordText(key, oids);
    const lines = good.split('\n');
    const body = `${lines.slice(0, -2).join('\n')}\n`;
    const end = (b: string, n: number, w = 40) => `${b}end ${n} ${w} ${sha(b)}\n`;
    expect(end(body, oids.length)).toBe(good); // (the helper makes what recordText makes)
    const damaged = [
      good.replace(oids[1], oids[1].replace('0', '1')),
      good.slice(0, -1),
      body,
      `${good}${oids[0]}\n`,
      end(body, oids.length + 1),
      end(body, oids.length - 1),
      end(body, oids.length, 64),
      end(`${body}HEAD\n`, oids.length + 1),
      end(`${body}${'a'.repeat(39)}\n`, oids.length + 1),
      end(`${body}\n`, oids.length + 1),
      end(body.replace('\n', '\r\n'), oids.length),
      good.replace('scanned notes 1', 'scanned notes 2'),
      `\n${good}`,
      JSON.stringify({ clean: oids }),
      '',
    ];
    for (const text of damaged) expect(ScannedRecord.parse(text, key).size, JSON.stringify(text)).toBe(0);
  });
});

describe('the record of clean notes: the file', () => {
  const me = process.geteuid!();
  const facts = (uid: number, mode: number, file = true) => ({ uid, mode, isFile: () => file });

  it('is believed only as a plain file of this user that no one else may write', () => {
    expect(trustedRecordFile(facts(me, 0o100600), me)).toBe(true);
    expect(trustedRecordFile(facts(me, 0o100644), me)).toBe(true);
    expect(trustedRecordFile(facts(me + 1, 0o100600), me)).toBe(false);
    expect(trustedRecordFile(facts(me, 0o100620), me)).toBe(false);
    expect(trustedRecordFile(facts(me, 0o100602), me)).toBe(false);
    expect(trustedRecordFile(facts(me, 0o100600, false), me)).toBe(false);
    expect(trustedRecordFile(facts(me, 0o100600), undefined)).toBe(false);
  });

  it('is written with mode 0600 and read back; a world-writable file or a link to a good one reads as empty', () => {
    const dir = tempDir();
    const path = scannedNotesPath(dir);
    writeScannedNotes(path, recordText(key, oids));
    expect(says(readScannedNotes(path, key), oids)).toEqual([true, true, true]);
    chmodSync(path, 0o666);
    expect(readScannedNotes(path, key).size).toBe(0);
    const link = join(dir, 'handoff', 'linked');
    chmodSync(path, 0o600);
    symlinkSync(path, link);
    expect(readScannedNotes(link, key).size).toBe(0);
    expect(readScannedNotes(join(dir, 'absent'), key).size).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(recordText(key, oids));
  });

  it('a record that cannot be written leaves no trace and throws nothing', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'handoff'));
    writeFileSync(join(dir, 'handoff', 'scanned-notes'), 'x');
    chmodSync(join(dir, 'handoff'), 0o500);
    const path = scannedNotesPath(dir);
    try {
      expect(() => writeScannedNotes(path, recordText(key, oids))).not.toThrow();
      // (root writes through a read-only folder: then the record is simply written)
      if (me !== 0) expect(readFileSync(path, 'utf8')).toBe('x');
    } finally {
      chmodSync(join(dir, 'handoff'), 0o700);
    }
  });
});
