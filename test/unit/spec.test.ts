import { describe, expect, it } from 'vitest';
import { parseCommandArgs, type CommandSpec } from '../../src/cli/spec.js';

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
