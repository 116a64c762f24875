import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as errors from '../../src/errors.js';
import {
  ExternalFailure,
  GhFailed,
  HandoffError,
  InstallationIncomplete,
  InternalError,
  isHandoffError,
  NotARepository,
  ProviderFailed,
  Refused,
  reportedMessage,
  UsageError,
} from '../../src/errors.js';

type ErrorClass = typeof HandoffError;
const classes = Object.entries(errors).filter(
  (e): e is [string, ErrorClass] => typeof e[1] === 'function' && (e[1] === HandoffError || e[1].prototype instanceof HandoffError),
);

/** One of each class, built the way its throw sites build it. */
const sample = (cls: ErrorClass): HandoffError =>
  cls === (GhFailed as unknown) ? new GhFailed(['issue', 'view', '7'], 'HTTP 404') : new cls('it went wrong', { field: 'summary' });

describe('the error classes', () => {
  it('are all found (the list below is not empty by accident)', () => {
    expect(classes.length).toBeGreaterThan(40);
    expect(classes.map(([name]) => name)).toEqual(expect.arrayContaining(['HandoffError', 'Refused', 'GhFailed', 'InvariantBroken', 'TooFewVersions']));
  });

  it('each has a code of its own, equal to its name, so a rename cannot change it silently', () => {
    for (const [name, cls] of classes) {
      expect(Object.prototype.hasOwnProperty.call(cls, 'code'), name).toBe(true);
      expect(cls.code).toBe(name);
    }
    expect(new Set(classes.map(([, cls]) => cls.code)).size).toBe(classes.length);
  });

  it('each serialises to { code, message, data } and exits with its family code', () => {
    for (const [name, cls] of classes) {
      const e = sample(cls);
      const json = JSON.parse(JSON.stringify(e));
      expect(Object.keys(json), name).toEqual(['code', 'message', 'data']);
      expect(json.code).toBe(name);
      expect(json.message).toBe(e.message);
      const family = e instanceof UsageError ? 2 : e instanceof InternalError ? 3 : e instanceof ExternalFailure ? 4 : 1;
      expect(e.exitCode, name).toBe(family);
    }
  });

  it('no throw site uses a family class itself: every refusal has its own code', () => {
    const src = join(__dirname, '../../src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const generic = files.flatMap((f) =>
      (readFileSync(join(src, f), 'utf8').match(/new (?:HandoffError|Refused|ExternalFailure|InternalError)\(/g) ?? []).map((m) => `${f}: ${m}`),
    );
    expect(files.length).toBeGreaterThan(100);
    expect(generic).toEqual([]);
  });

  it('the internal-error prefix is given in one place: an error we know keeps its message, one we do not or one marked unexpected gets it', () => {
    expect(reportedMessage(new Refused('no'))).toBe('no');
    expect(reportedMessage(new errors.GitFailed('git mktree failed'))).toBe('git mktree failed');
    expect(reportedMessage(new Error('boom'))).toBe('internal error: boom');
    expect(reportedMessage('thrown text')).toBe('internal error: thrown text');
    const e = new InstallationIncomplete('cannot find the package');
    expect([e.message, e.exitCode, reportedMessage(e)]).toEqual(['cannot find the package', 3, 'internal error: cannot find the package']);
    // and no code writes it by hand (comments aside)
    const src = join(__dirname, '../../src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && f !== 'errors.ts');
    const byHand = files.flatMap((f) =>
      readFileSync(join(src, f), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\*|\/\/)/.test(l) && /['"`]internal error: /i.test(l))
        .map((l) => `${f}: ${l.trim()}`),
    );
    expect(byHand).toEqual([]);
  });

  it('leaves data out of the JSON when there is none', () => {
    expect(new Refused('no').toJSON()).toEqual({ code: 'Refused', message: 'no' });
  });

  it('GhFailed is an external failure that keeps what gh said', () => {
    const e = new GhFailed(['project', 'item-list', '3'], 'not authenticated');
    expect(isHandoffError(e, ExternalFailure)).toBe(true);
    expect([e.exitCode, e.message, e.detail, e.args]).toEqual([
      4,
      'gh project item-list failed: not authenticated',
      'not authenticated',
      ['project', 'item-list', '3'],
    ]);
  });
});

describe('isHandoffError', () => {
  it.each([
    [new NotARepository('x'), undefined, true],
    [new NotARepository('x'), NotARepository, true],
    [new NotARepository('x'), 'NotARepository', true],
    [new NotARepository('x'), Refused, true],
    [new NotARepository('x'), 'HandoffError', true],
    [new NotARepository('x'), ProviderFailed, false],
    [new Refused('x'), NotARepository, false],
    [new ProviderFailed('x'), ExternalFailure, true],
    [new Error('x'), undefined, false],
    [Object.assign(new Error('x'), { code: 'NotARepository' }), 'NotARepository', false],
    [null, undefined, false],
    ['NotARepository', 'NotARepository', false],
  ])('%s as %s: %s', (e, want, expected) => {
    expect(want === undefined ? isHandoffError(e) : isHandoffError(e, want as never)).toBe(expected);
  });

  it('classifies an error thrown by another copy of the module (another bundle), where instanceof fails', async () => {
    vi.resetModules();
    const other = await import('../../src/errors.js');
    expect(other.NotARepository).not.toBe(NotARepository);
    const e = new other.NotARepository('elsewhere');
    expect(e instanceof NotARepository).toBe(false);
    expect(isHandoffError(e, NotARepository)).toBe(true);
    expect(isHandoffError(e, Refused)).toBe(true);
    expect(isHandoffError(e, UsageError)).toBe(false);
  });
});
