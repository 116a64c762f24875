import { describe, expect, it } from 'vitest';
import { formatRecord, isCommitOnly, parseRecord, pathDigest, strictPurgedMessage } from '../../src/core/purge.js';

const ID = 'a'.repeat(40);
const T = 'b'.repeat(40);

describe('a purged commit message (issue 23 point 8)', () => {
  it('keeps only the trailers whose values are ids, fixed words or counts', () => {
    const trailers = {
      'Handoff-Kind': 'version',
      'Handoff-Target': T,
      'Handoff-Branch': 'ghp_x',
      'Handoff-Continues': `${ID}, ${T}`,
      'Handoff-Approved-By': 'ghp_y',
      'Handoff-Visibility': 'team',
      'Handoff-Relay': 'requested please',
      Other: 'z',
    };
    expect(strictPurgedMessage(trailers, T)).toBe(
      `handoff bbbbbbb: content purged\n\nHandoff-Kind: version\nHandoff-Target: ${T}\nHandoff-Continues: ${ID}, ${T}\nHandoff-Visibility: team\n`,
    );
    expect(strictPurgedMessage({ 'Handoff-Kind': 'policy; ghp_z' }, ID)).toBe('handoff aaaaaaa: content purged\n');
  });

  it('a record of a message reads back as written; one without the mark is a plain version record', () => {
    const r = { version: ID, target: ID, blob: ID, message: true as const };
    expect(parseRecord(formatRecord(r))).toEqual(r);
    expect(isCommitOnly(r)).toBe(true);
    expect(isCommitOnly({ version: ID, blob: T, message: true })).toBe(false);
    expect(parseRecord(formatRecord({ version: ID, target: T, blob: T }))).toEqual({ version: ID, target: T, blob: T });
    expect(parseRecord(`{"version":"${ID}","target":"${T}","blob":"${T}","message":"yes"}`)).toEqual({ version: ID, target: T, blob: T });
    const named = { version: ID, target: ID, blob: ID, names: [pathDigest('receipts/x.json')] };
    expect(parseRecord(formatRecord(named))).toEqual(named);
    expect(isCommitOnly(named)).toBe(true);
    expect(parseRecord(`{"version":"${ID}","target":"${ID}","blob":"${ID}","names":["receipts/x.json"]}`)).toEqual({ version: ID, target: ID, blob: ID });
  });
});
