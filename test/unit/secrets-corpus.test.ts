import { describe, expect, it } from 'vitest';
import { scanText } from '../../src/core/secrets.js';
import { scoreCorpus } from '../helpers/secret-corpus.js';

// The scanner's measured recall and false alarms (node scripts/secrets-corpus.mjs prints them): kept as a test so
// that a rule change that loses a family or starts crying wolf on prose fails here.
describe('the scanner on its corpus', () => {
  const s = scoreCorpus(scanText);

  it('is big enough to mean something', () => {
    expect(s.positives).toBeGreaterThanOrEqual(500);
    expect(s.proseLines).toBeGreaterThanOrEqual(400);
  });

  it('catches every family and at least 98% of the values', () => {
    expect(s.missedFamilies).toEqual([]);
    expect(s.caught / s.positives).toBeGreaterThanOrEqual(0.98);
  });

  it('raises no false alarm on ordinary engineering prose', () => {
    expect(s.falseAlarms).toEqual([]);
  });
});
