import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import {
  parseRecord,
  readScannedNotes,
  recordText,
  scannedNotesPath,
  trustedRecordFile,
  writeScannedNotes,
  type ScanKey,
} from '../../src/state/scanned-notes.js';
import { tempDir } from '../helpers/repo.js';

const key: ScanKey = { build: 'b'.repeat(64), allow: ['^AKIA[0-9A-Z]{16}$', 'example'] };
const oids = ['a'.repeat(40), '0123456789abcdef0123456789abcdef01234567', 'c'.repeat(64)];
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the record of clean notes: its bytes', () => {
  it('reads back what it wrote, and an empty record', () => {
    expect(parseRecord(recordText(key, oids), key)).toEqual(new Set(oids));
    expect(parseRecord(recordText(key, []), key)).toEqual(new Set());
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
      expect(parseRecord(text, other)).toEqual(new Set());
  });

  it('counts a damaged or foreign text as empty', () => {
    const good = recordText(key, oids);
    const lines = good.split('\n');
    const body = `${lines.slice(0, -2).join('\n')}\n`;
    const end = (b: string, n: number) => `${b}end ${n} ${sha(b)}\n`;
    expect(parseRecord(end(body, oids.length), key)).toEqual(new Set(oids)); // (the helper makes what recordText makes)
    const damaged = [
      good.replace(oids[1], oids[1].replace('0', '1')),
      good.slice(0, -1),
      body,
      `${good}${oids[0]}\n`,
      end(body, oids.length + 1),
      end(body, oids.length - 1),
      end(`${body}HEAD\n`, oids.length + 1),
      end(`${body}${'A'.repeat(40)}\n`, oids.length + 1),
      end(`${body}${'a'.repeat(39)}\n`, oids.length + 1),
      end(`${body}\n`, oids.length + 1),
      end(body.replace('\n', '\r\n'), oids.length),
      good.replace('scanned notes 1', 'scanned notes 2'),
      `\n${good}`,
      JSON.stringify({ clean: oids }),
      '',
    ];
    for (const text of damaged) expect(parseRecord(text, key), JSON.stringify(text)).toEqual(new Set());
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
    writeScannedNotes(path, key, new Set(oids));
    expect(readScannedNotes(path, key)).toEqual(new Set(oids));
    chmodSync(path, 0o666);
    expect(readScannedNotes(path, key)).toEqual(new Set());
    const link = join(dir, 'handoff', 'linked');
    chmodSync(path, 0o600);
    symlinkSync(path, link);
    expect(readScannedNotes(link, key)).toEqual(new Set());
    expect(readScannedNotes(join(dir, 'absent'), key)).toEqual(new Set());
    expect(readFileSync(path, 'utf8')).toBe(recordText(key, oids));
  });

  it('a record that cannot be written leaves no trace and throws nothing', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'handoff'));
    writeFileSync(join(dir, 'handoff', 'scanned-notes'), 'x');
    chmodSync(join(dir, 'handoff'), 0o500);
    const path = scannedNotesPath(dir);
    try {
      expect(() => writeScannedNotes(path, key, new Set(oids))).not.toThrow();
      // (root writes through a read-only folder: then the record is simply written)
      if (me !== 0) expect(readFileSync(path, 'utf8')).toBe('x');
    } finally {
      chmodSync(join(dir, 'handoff'), 0o700);
    }
  });
});
