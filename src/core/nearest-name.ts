/**
 * "did you mean ...?" for a mistyped command or option: the nearest known name
 * by edit distance (a swap of two neighbours counts as one edit, as git's own help.autocorrect
 * does), or the one known name it is a prefix of. Pure.
 */

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The one known name closest to `typed`, or null when none is close enough or two tie. */
export function nearestName(typed: string, known: string[]): string | null {
  const t = typed.toLowerCase();
  if (t.length >= 3) {
    const prefixed = known.filter((k) => k.toLowerCase().startsWith(t));
    if (prefixed.length === 1) return prefixed[0];
  }
  const limit = t.length <= 3 ? 1 : t.length <= 6 ? 2 : 3;
  let best: string | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const k of known) {
    const dist = editDistance(t, k.toLowerCase());
    if (dist < bestDistance) [best, bestDistance, tie] = [k, dist, false];
    else if (dist === bestDistance) tie = true;
  }
  return best !== null && bestDistance <= limit && !tie ? best : null;
}
