import { describe, expect, it } from 'vitest';
import { parseArgs } from 'node:util';
import { parseCommandArgs } from '../../src/cli/spec.js';
import type { CommandSpec } from '../../src/app/command-line.js';
import { COMMANDS } from '../../src/commands/registry.js';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'demo',
  positionals: [{ name: 'X', describe: 'x', optional: true }],
  options: {
    summary: { type: 'string', short: 's', describe: 's' },
    guard: { type: 'string', multiple: true, describe: 'g' },
    json: { type: 'boolean', describe: 'j' },
  },
};

describe('command-line parsing', () => {
  it.each([
    [['--summary', '- fixed the parser'], { summary: '- fixed the parser' }],
    [['-s', '-x'], { summary: '-x' }],
    [['--summary=--odd'], { summary: '--odd' }],
    [['--guard', '- a', '--guard', 'b'], { guard: ['- a', 'b'] }],
    [['--json', '--summary', 'x'], { json: true, summary: 'x' }],
  ])('%j', (argv, values) => {
    expect(parseCommandArgs(spec, argv).values).toMatchObject(values);
  });

  it('keeps positionals after --', () => {
    expect(parseCommandArgs(spec, ['--', '-weird']).positionals).toEqual(['-weird']);
  });

  it.each([
    [['--nope'], /unknown option '--nope'/],
    [['--summary'], /needs a value/],
    [['a', 'b'], /unexpected argument 'b'/],
  ])('refuses %j as a usage error', (argv, message) => {
    expect(() => parseCommandArgs(spec, argv)).toThrow(message);
    try {
      parseCommandArgs(spec, argv);
    } catch (e) {
      expect((e as { exitCode: number }).exitCode).toBe(2);
    }
  });
});

describe('no arguments (answered without loading util.parseArgs)', () => {
  it('gives what util.parseArgs gives, for every command', async () => {
    for (const load of Object.values(COMMANDS)) {
      const { spec: s } = (await load()).command;
      const required = (s.positionals ?? []).some((p) => !p.optional);
      if (required) {
        expect(() => parseCommandArgs(s, [])).toThrow(`${s.name}: missing ${s.positionals![0].name}`);
        continue;
      }
      const options = Object.fromEntries(Object.entries(s.options).map(([k, o]) => [k, { type: o.type, ...(o.multiple ? { multiple: true } : {}) }]));
      const want = parseArgs({ args: [], options, allowPositionals: true, strict: true });
      const got = parseCommandArgs(s, []);
      expect(got).toEqual({ values: want.values, positionals: want.positionals });
      expect(Object.getPrototypeOf(got.values)).toBe(Object.getPrototypeOf(want.values));
    }
  });

  it('still names a missing positional', () => {
    const needs: CommandSpec = { name: 'needs', summary: 'n', positionals: [{ name: 'FILE', describe: 'f' }], options: {} };
    expect(() => parseCommandArgs(needs, [])).toThrow('needs: missing FILE');
    expect(parseCommandArgs(spec, [])).toEqual({ values: {}, positionals: [] });
  });
});
