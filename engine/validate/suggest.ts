/**
 * "Did you mean" suggestions by edit distance.
 */

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of neighbours
 * (optimal string alignment).
 * @example editDistance('tool', 'tools') // 1
 * @example editDistance('Sotp', 'Stop') // 1
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
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

/**
 * The candidate closest to `word`, when it is close enough to be a likely typo.
 * Case differences count as one edit at most; a clipped prefix as 1.5.
 * @example closest('PreTooluse', EVENT_NAMES) // 'PreToolUse'
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const exactCase = editDistance(word, candidate);
    const lower = word.toLowerCase();
    const candidateLower = candidate.toLowerCase();
    // A clipped name (`PreTool` for `PreToolUse`) is as likely a typo as one wrong letter.
    const prefix = lower.length >= 4 && candidateLower.startsWith(lower) ? 1.5 : Infinity;
    const d = Math.min(exactCase, editDistance(lower, candidateLower) + 1, prefix);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  const limit = word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3));
  return best !== null && bestDistance <= limit ? best : null;
}

/**
 * A `did you mean "x"?` hint, or undefined.
 * @example didYouMean('tool', ['tools', 'agents']) // 'did you mean "tools"?'
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const match = closest(word, candidates);
  return match === null ? undefined : `did you mean "${match}"?`;
}
