/** What doctor reports: a finding, how it counts, and when the repository is healthy (its checks in doctor-*.ts). */

export type FindingKind = 'orphan' | 'lost' | 'lock' | 'copies' | 'install' | 'agent' | 'unreadable' | 'key' | 'lineage' | 'diverged';

/**
 * How a finding counts (a finding and `healthy` always agree): `fixable` until
 * `--fix` repairs it, then `fixed`; `problem` needs the user and makes doctor unhealthy;
 * `note` is worth knowing and needs nothing (a leftover of an ordinary local rewrite, a
 * note waiting for a fetch, a lock a live writer holds).
 */
export type FindingLevel = 'fixed' | 'fixable' | 'problem' | 'note';

export interface Finding {
  kind: FindingKind;
  /** what it is about: a commit id, a lock file path */
  subject: string;
  message: string;
  /** what `--fix` will do (or did), or what the user should do; 'nothing to do' for a note */
  action: string;
  fixable: boolean;
  fixed: boolean;
  /** for a finding that is not fixable: does it need the user (default) or is it a note */
  note?: boolean;
  /** findings alike enough to print as one line with a count: that line, for N of them */
  group?: (n: number) => string;
  /** for a fixed orphan: the commit it now sits on and the new version */
  to?: string;
  /** for an orphan that can be re-attached: the branch its new version is recorded on (null: none) */
  branch?: string | null;
  version?: string;
  /** for lost versions: their ids, newest first (`version` is then the repair commit that restored them) */
  lost?: string[];
  /** for versions the user's key cannot read: the first of their ids, newest first, and how many there are (also: versions written before lineage) */
  versions?: string[];
  count?: number;
  /** for `doctor --key`: the versions whose readers cannot be told from what is in the clear, the first of them, and how many */
  unknown?: string[];
  unknownCount?: number;
}

export function findingLevel(f: Finding): FindingLevel {
  if (f.fixed) return 'fixed';
  if (f.fixable) return 'fixable';
  return f.note ? 'note' : 'problem';
}

/** Healthy exactly when nothing is left for `--fix` or for the user. */
export function isHealthy(findings: Finding[]): boolean {
  return findings.every((f) => {
    const level = findingLevel(f);
    return level === 'fixed' || level === 'note';
  });
}
