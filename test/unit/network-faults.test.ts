import { describe, expect, it } from 'vitest';
import { causeOfErrno, causeOfText, describeCause, pathInText } from '../../src/core/fs-cause.js';
import { reasonOf, networkBudget, remainingMs } from '../../src/git/remote.js';
import { backoffMs } from '../../src/app/sync.js';

describe('the environment refusing a write is named, not an internal error', () => {
  it.each([
    ['ENOSPC', 'no-space'],
    ['EDQUOT', 'quota'],
    ['EROFS', 'read-only'],
    ['EACCES', 'permission'],
    ['EPERM', 'permission'],
    ['ENOENT', null],
    [undefined, null],
  ])('errno %s -> %s', (code, cause) => expect(causeOfErrno(code)).toBe(cause));

  it.each([
    ["fatal: Unable to create '/r/.git/refs/notes/handoff.lock': Read-only file system", 'read-only', '/r/.git/refs/notes/handoff.lock'],
    ['fatal: unable to write loose object file: No space left on device', 'no-space', null],
    ['error: unable to open /r/.git/objects/ab/x: Permission denied', 'permission', '/r/.git/objects/ab/x'],
    [
      "fatal: cannot lock ref 'refs/notes/handoff': Unable to create '/r/.git/./refs/notes/handoff.lock': File exists.",
      null,
      '/r/.git/refs/notes/handoff.lock',
    ],
  ])('%s', (text, cause, path) => {
    expect(causeOfText(text)).toBe(cause);
    expect(pathInText(text)).toBe(path);
  });

  it('says where, in one line', () => {
    expect(describeCause('no-space', '/r/.git')).toBe('no space left on the device holding /r/.git');
    expect(describeCause('no-inodes', '/r/.git')).toMatch(/^no free inodes left on the device holding \/r\/\.git/);
    expect(describeCause('read-only', '/r/.git/x')).toBe('read-only file system: cannot write /r/.git/x');
    for (const c of ['no-space', 'no-inodes', 'quota', 'read-only', 'permission'] as const) expect(describeCause(c, '/p')).not.toContain('\n');
  });
});

describe('network budgets', () => {
  it('the reason of a failed step is the error line, not progress', () => {
    const stderr =
      'remote: Enumerating objects: 5, done.\rremote: Counting objects: 100% (5/5), done.\nReceiving objects:  40% (2/5)\rfatal: early EOF\nfatal: fetch-pack: invalid index-pack output\n';
    expect(reasonOf(stderr)).toBe('fatal: early EOF');
    expect(reasonOf('fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\n')).toBe(
      'fatal: Could not read from remote repository.',
    );
  });

  it("keeps the cause git puts on the line after a message ending in ':'", () => {
    expect(reasonOf('fatal: unable to connect to 127.0.0.1:\n127.0.0.1[0: 127.0.0.1]: errno=Connection refused\n')).toBe(
      'fatal: unable to connect to 127.0.0.1: 127.0.0.1[0: 127.0.0.1]: errno=Connection refused',
    );
  });

  it('stall detection never outlasts the deadline', () => {
    const b = networkBudget(3, 15, 'handoff.sync.hookTimeout', 1000);
    expect(b.deadline).toBe(4000);
    expect(b.stallMs).toBe(3000);
    expect(remainingMs(b, 3500)).toBe(500);
    expect(remainingMs(b, 5000)).toBe(0);
  });

  it('backoff is jittered, grows with the attempt and is capped lower for a short (hook) budget', () => {
    expect(backoffMs(1, 60, () => 0)).toBe(10);
    expect(backoffMs(1, 60, () => 1)).toBeLessThan(backoffMs(4, 60, () => 1));
    expect(backoffMs(20, 60, () => 1)).toBe(3010);
    expect(backoffMs(20, 8, () => 1)).toBeLessThan(700);
    expect(backoffMs(20, 1, () => 1)).toBe(210);
  });
});
