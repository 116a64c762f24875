/**
 * Property tests: any handoff `write` accepts survives the trip to
 * canonical YAML and back, through our reader and through js-yaml, unchanged and with the
 * same bytes when written again.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { load, CORE_SCHEMA } from 'js-yaml';
import { normalizeInput, checkStored } from '../../src/core/schema.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';
import { parseDocument } from '../../src/core/parse.js';
import { stored, toolFields, writeInput } from '../helpers/arbitraries.js';

describe('schema and canonical YAML round-trip (property)', () => {
  it('a stored handoff reads back equal, in the same key order, and re-emits the same bytes', async () => {
    await fc.assert(
      fc.asyncProperty(writeInput, toolFields, async (input, tool) => {
        const h = stored(input, tool);
        const yaml = toCanonicalYaml(h as Record<string, unknown>);
        expect(yaml.endsWith('\n')).toBe(true);
        expect(yaml).not.toContain('\r');
        const back = checkStored(await parseDocument(yaml));
        expect(back.problems.map(String)).toEqual([]);
        expect(back.handoff).toEqual(h);
        expect(JSON.stringify(back.handoff)).toBe(JSON.stringify(h));
        expect(toCanonicalYaml(back.handoff as Record<string, unknown>)).toBe(yaml);
        // Any YAML reader gets the same document: js-yaml with the core schema.
        expect(load(yaml, { schema: CORE_SCHEMA })).toEqual(h);
      }),
      { numRuns: 300 },
    );
  });

  it('JSON input and the same document as YAML are one handoff', async () => {
    await fc.assert(
      fc.asyncProperty(writeInput, async (input) => {
        const viaJson = normalizeInput(await parseDocument(JSON.stringify(input)));
        const viaYaml = normalizeInput(await parseDocument(toCanonicalYaml(input)));
        expect(viaJson.problems).toEqual([]);
        expect(viaYaml.handoff).toEqual(viaJson.handoff);
        expect(viaJson.handoff).toEqual(normalizeInput(input).handoff);
      }),
      { numRuns: 200 },
    );
  });
});
