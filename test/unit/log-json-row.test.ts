import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonRow, type LogRow } from '../../src/commands/log.js';
import { jsonVisible } from '../../src/core/visible-text.js';

// `log --json` writes each row field by field; these are the bytes the general serializer gives
// (as every --json document is written: DEL, C1 and bidi controls as \u escapes).
describe('log --json rows', () => {
  const general = (r: LogRow) => jsonVisible(JSON.stringify(r, null, 2).replace(/\n/g, '\n    '));
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.constantFrom('', 'a\nb', '"q"', '\\', '\u2028', '\u202e', '\x9b', '\u0000', 'é', '\ud800'),
  );
  const maybe = fc.option(text, { nil: null });
  const row = fc.record(
    {
      version: text,
      target: text,
      date: text,
      valid: fc.boolean(),
      session_id: maybe,
      status: maybe,
      summary: maybe,
      continues: fc.array(text, { maxLength: 3 }),
      author: fc.record({ name: text, email: text }),
      origin: maybe,
      signature: fc.constantFrom('verified', 'unsigned', 'bad'),
      signer: text,
      visibility: fc.constantFrom('shared', 'team', 'private'),
      readable: fc.boolean(),
    },
    {
      requiredKeys: [
        'version',
        'target',
        'date',
        'valid',
        'session_id',
        'status',
        'summary',
        'continues',
        'author',
        'origin',
        'signature',
        'visibility',
        'readable',
      ],
    },
  );

  it('are the bytes of JSON.stringify(row, null, 2), indented', () => {
    fc.assert(
      fc.property(row, (r) => {
        expect(jsonRow(r)).toBe(general(r));
      }),
      { numRuns: 2000 },
    );
  });

  it('are the general serializer’s when a field is not a flat value', () => {
    const r = {
      version: 'v',
      target: 't',
      date: 'd',
      valid: true,
      session_id: null,
      status: null,
      summary: ['x'],
      continues: [],
      author: { name: 'a', email: 'e' },
      origin: 'local',
      signature: 'unsigned',
      visibility: 'shared',
      readable: true,
    } as unknown as LogRow;
    expect(jsonRow(r)).toBe(general(r));
  });
});
