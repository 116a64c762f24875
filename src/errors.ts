/**
 * Typed errors with stable codes. Only the entry point (src/cli.ts) turns them into
 * exit codes and text (docs/architecture.md: 1 refused, 2 usage, 3 internal, 4 external).
 */
export type ExitCode = 1 | 2 | 3 | 4;

/** Marks our errors across bundles: each command is bundled on its own, so `instanceof` cannot be trusted. */
const BRAND = Symbol.for('git-handoff.error');

/** One of our error classes, as `isHandoffError` takes it: by its static `code`, never by identity. */
export type HandoffErrorClass<T extends HandoffError = HandoffError> = { code: string; prototype: T };

/**
 * Whether `e` is one of our errors; given a class (or its code), whether it is of that class
 * or a subclass of it. Classifies by the stable codes along the error's own class chain, not
 * by `instanceof`: an error thrown by one bundle's copy of this module is caught by another's.
 */
export function isHandoffError(e: unknown): e is HandoffError;
export function isHandoffError<T extends HandoffError>(e: unknown, cls: HandoffErrorClass<T>): e is T;
export function isHandoffError(e: unknown, code: string): e is HandoffError;
export function isHandoffError(e: unknown, want?: string | HandoffErrorClass): e is HandoffError {
  if (typeof e !== 'object' || e === null || (e as Record<symbol, unknown>)[BRAND] !== true) return false;
  if (want === undefined) return true;
  const code = typeof want === 'string' ? want : want.code;
  for (let c = (e as object).constructor as { code?: unknown } | undefined; c && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, 'code') && c.code === code) return true;
  }
  return false;
}

/**
 * The one message an error is reported with (stderr, `--json`, an MCP tool error): ours as
 * written; one we do not know, or one marked `unexpected`, after `internal error: `. This is
 * the only place that prefix is given.
 */
export function reportedMessage(e: unknown): string {
  if (isHandoffError(e) && !e.unexpected) return e.message;
  return `internal error: ${(e as Error | null)?.message ?? String(e)}`;
}

export class HandoffError extends Error {
  static code = 'HandoffError';
  readonly exitCode: ExitCode = 1;
  /**
   * Reported as an error the entry point does not know is (`internal error: ...`, see
   * `reportedMessage`): a failure of our package, not of the user's input or repository.
   */
  readonly unexpected: boolean = false;
  readonly [BRAND] = true;
  constructor(
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
  get code(): string {
    return (this.constructor as typeof HandoffError).code;
  }
  toJSON() {
    return { code: this.code, message: this.message, ...(Object.keys(this.data).length ? { data: this.data } : {}) };
  }
}

/** Exit 1: the input or the repository state is refused. */
export class Refused extends HandoffError {
  static override code = 'Refused';
}
export class NotARepository extends Refused {
  static override code = 'NotARepository';
}
export class UnbornBranch extends Refused {
  static override code = 'UnbornBranch';
}
export class UnsupportedRepository extends Refused {
  static override code = 'UnsupportedRepository';
}
/** A repository git itself refuses (safe.directory, safe.bareRepository): every command refuses it too, every hook ignores it. */
export class UntrustedRepository extends Refused {
  static override code = 'UntrustedRepository';
}
/** A command that reads or writes the work tree, run in a bare repository. */
export class BareRepository extends Refused {
  static override code = 'BareRepository';
}
export class InvalidHandoff extends Refused {
  static override code = 'InvalidHandoff';
}
export class InvalidInput extends Refused {
  static override code = 'InvalidInput';
}
export class SecretDetected extends Refused {
  static override code = 'SecretDetected';
}
export class UnknownVersion extends Refused {
  static override code = 'UnknownVersion';
}
/** Exit 1: the port `view --port` names is taken. */
export class PortInUse extends Refused {
  static override code = 'PortInUse';
}
export class UnknownBranch extends Refused {
  static override code = 'UnknownBranch';
}
export class LockHeld extends Refused {
  static override code = 'LockHeld';
}
export class ValidationFailed extends Refused {
  static override code = 'ValidationFailed';
}
export class TransitionRefused extends Refused {
  static override code = 'TransitionRefused';
}
export class PolicyNotApproved extends Refused {
  static override code = 'PolicyNotApproved';
}
/** An age identity or recipient list that cannot be used: missing, unsafe mode, not age's format (docs/privacy.md). */
export class KeyProblem extends Refused {
  static override code = 'KeyProblem';
}
/** A change to `.handoff-recipients` that arrived with a pull, merge or checkout and is not accepted yet (docs/privacy.md). */
export class ReadersNotAccepted extends Refused {
  static override code = 'ReadersNotAccepted';
}
/** A patch write onto a head the writer cannot decrypt (docs/privacy.md). */
export class UnreadableHead extends Refused {
  static override code = 'UnreadableHead';
}
export class NoRemote extends Refused {
  static override code = 'NoRemote';
}

/** An object git cannot read either (a corrupt loose object or pack entry): never taken for a missing one. */
export class CorruptObject extends Refused {
  static override code = 'CorruptObject';
}

/** Exit 2: the command line itself is wrong. */
export class UsageError extends HandoffError {
  static override code = 'UsageError';
  override readonly exitCode = 2 as const;
}

/** Exit 4: an external step (git remote, gh, tmux) failed; safe to re-run. */
export class ExternalFailure extends HandoffError {
  static override code = 'ExternalFailure';
  override readonly exitCode = 4 as const;
}

/** Exit 3: something that should not happen. */
export class InternalError extends HandoffError {
  static override code = 'InternalError';
  override readonly exitCode = 3 as const;
}

/** A git plumbing call failed where it should not have. */
export class GitFailed extends InternalError {
  static override code = 'GitFailed';
}

/** Exit 4: git could not sign a notes commit with the user's signing setup (`handoff.sign`). */
export class SigningFailed extends ExternalFailure {
  static override code = 'SigningFailed';
}

/** Exit 4: a provider step (gh) failed after the local receipt was written; re-running is safe. */
export class ProviderFailed extends ExternalFailure {
  static override code = 'ProviderFailed';
}

/** Exit 1: `.harness/session-workflow.yaml` (or the delivery config) does not parse. */
export class InvalidPolicy extends Refused {
  static override code = 'InvalidPolicy';
}

/** Exit 1: the notes hold no record of this work item. */
export class UnknownWorkItem extends Refused {
  static override code = 'UnknownWorkItem';
}

/** Exit 1: there is no handoff to act on (export, relay). */
export class NoHandoff extends Refused {
  static override code = 'NoHandoff';
}

/** Exit 1: a tool the command needs (tmux) is not installed. */
export class ToolMissing extends Refused {
  static override code = 'ToolMissing';
}

/** Exit 1: an ack that cannot be taken (stale prompt, unknown relay, relay no longer waiting). */
export class AckRefused extends Refused {
  static override code = 'AckRefused';
}

/** Exit 4: a relay failed or timed out; re-run with --retry. */
export class RelayFailed extends ExternalFailure {
  static override code = 'RelayFailed';
}

/** Exit 4: the remote could not be reached (network, auth, no such repository). */
export class RemoteUnreachable extends ExternalFailure {
  static override code = 'RemoteUnreachable';
}
/** Exit 4: the remote answered but refused the update (a hook, permissions, it kept moving). */
export class RemoteRefused extends ExternalFailure {
  static override code = 'RemoteRefused';
}
/** Exit 1: the remote holds history this clone purged; only `sync --force` may replace it. */
export class PurgedHistory extends Refused {
  static override code = 'PurgedHistory';
}
/** Exit 1: the environment refused a write: disk full, no inodes, read-only, permission denied. */
export class FileSystemRefused extends Refused {
  static override code = 'FileSystemRefused';
}

/** Exit 1: a diff was asked for without names, and the selection holds fewer than two versions. */
export class TooFewVersions extends Refused {
  static override code = 'TooFewVersions';
}
/** Exit 1: a purge names a version that is already purged, or one whose note is gone. */
export class NothingToPurge extends Refused {
  static override code = 'NothingToPurge';
}
/** Exit 1: `policy approve` without a policy file: the built-in defaults need no approval. */
export class NoPolicy extends Refused {
  static override code = 'NoPolicy';
}
/** Exit 1: an act only a person may take (approving a policy) was asked for by an agent session. */
export class PersonRequired extends Refused {
  static override code = 'PersonRequired';
}
/** Exit 2, a usage error: `--agent` names an agent we have no adapter for. */
export class UnknownAgent extends UsageError {
  static override code = 'UnknownAgent';
}
/** Exit 1: an agent's settings file (JSON, TOML) cannot be read or merged safely; it is left as it is. */
export class InvalidAgentSettings extends Refused {
  static override code = 'InvalidAgentSettings';
}
/** Exit 1: the handoff-document template (shipped or the policy's own) cannot be read. */
export class TemplateMissing extends Refused {
  static override code = 'TemplateMissing';
}
/** Exit 1: a work item's record in the notes does not parse. */
export class DamagedWorkItem extends Refused {
  static override code = 'DamagedWorkItem';
}
/** Exit 1: the item's number, or a receipt's id, already belongs to another work item. */
export class WorkItemConflict extends Refused {
  static override code = 'WorkItemConflict';
}

/** Exit 4: a `gh` call failed (not installed, not authenticated, refused by GitHub, or an answer we cannot use). */
export class GhFailed extends ExternalFailure {
  static override code = 'GhFailed';
  constructor(
    readonly args: string[],
    readonly detail: string,
  ) {
    super(`gh ${args.slice(0, 2).join(' ')} failed: ${detail}`, { args, detail });
  }
}

/** Exit 3: a rule our own code guarantees did not hold (a guarded invariant). */
export class InvariantBroken extends InternalError {
  static override code = 'InvariantBroken';
}
/** Exit 3: an object the notes or a ref point at is not in the repository. */
export class ObjectMissing extends InternalError {
  static override code = 'ObjectMissing';
}
/** Exit 3: a compare-and-swap ref update lost to other writers on every attempt. */
export class ConcurrentWriters extends InternalError {
  static override code = 'ConcurrentWriters';
}
/**
 * Exit 3: the installed package lacks a file it ships (githooks/). Reported with the
 * `internal error:` prefix errors we do not know get: the package is broken, not the input.
 */
export class InstallationIncomplete extends InternalError {
  static override code = 'InstallationIncomplete';
  override readonly unexpected = true;
}

/** A path that repository content would make us read or write outside the work tree or git dir, or a file that is no regular file of a bounded size. */
export class UnsafePath extends Refused {
  static override code = 'UnsafePath';
}
