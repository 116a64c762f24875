import type { Io } from '../io.js';

/** What a git hook handler gets: the hook's arguments as git passed them. */
export interface HookContext {
  io: Io;
  cwd: string;
  args: string[];
  /** stdin as git gave it (post-rewrite), read only by hooks that take input */
  stdin(): Promise<string>;
}

/** A hook handler returns its exit code: 0, or 1 only where the contract lets a hook stop git. */
export type HookHandler = (ctx: HookContext) => Promise<number>;
