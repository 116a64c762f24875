import { describe, expect, it } from 'vitest';
import { isObjectId, OID_HEX_LENGTH, ZERO_OID } from '../../src/core/object-id.js';

describe('object ids', () => {
  it.each([
    ['a'.repeat(40), true],
    [ZERO_OID, true],
    ['A'.repeat(40), false], // git prints and stores lower case only
    ['a'.repeat(39), false],
    ['a'.repeat(41), false],
    [`${'a'.repeat(40)}\n`, false],
    ['g'.repeat(40), false],
    ['a'.repeat(64), false], // sha256: not supported (yet)
    [null, false],
    [undefined, false],
    [40, false],
  ])('%j is an object id: %s', (v, want) => {
    expect(isObjectId(v)).toBe(want);
  });

  it('has the zero id git writes for "no object"', () => {
    expect(ZERO_OID).toBe('0000000000000000000000000000000000000000');
    expect(ZERO_OID).toHaveLength(OID_HEX_LENGTH);
  });
});
