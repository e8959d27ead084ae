/**
 * The privacy filter of `record`: a record whose text or any field matches one of
 * settings.memory.privacy is dropped before it reaches the store, never redacted. Globs
 * match the whole text, case-insensitively; `*` is the only wildcard and matches any
 * characters, `/` and new lines included (what the seed's `minimatch(content, pattern)`
 * means to do). Matching is a scan, not a regular expression: linear in the text for
 * each `*`-separated part, whatever the agent put in it.
 */

/** The seed's privacy filter (003), the default of settings.memory.privacy. */
export const DEFAULT_PRIVACY: readonly string[] = ['*.env', '*password*', '*secret*', '*api_key*'];

/** A glob split at its stars, lower-cased. */
type Parts = readonly string[];

const parsed = new Map<string, Parts>();

function partsOf(glob: string): Parts {
  let parts = parsed.get(glob);
  if (!parts) {
    parts = glob.toLowerCase().split('*');
    if (parsed.size > 1000) parsed.clear();
    parsed.set(glob, parts);
  }
  return parts;
}

/**
 * Whether `text` matches `glob` as a whole.
 * @example privacyGlobMatches('*password*', 'DB PASSWORD=1') // true
 * @example privacyGlobMatches('*.env', 'cat .env && ls') // false: the glob must match the whole text
 */
export function privacyGlobMatches(glob: string, text: string): boolean {
  return matchesParts(partsOf(glob), text.toLowerCase());
}

/** Anchored first and last parts, the middle ones leftmost in order: exact for `*`-only globs. */
function matchesParts(parts: Parts, lower: string): boolean {
  if (parts.length === 1) return lower === parts[0];
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (lower.length < first.length + last.length || !lower.startsWith(first) || !lower.endsWith(last)) return false;
  let at = first.length;
  const end = lower.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i];
    if (part === '') continue;
    const found = lower.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/**
 * The first glob one of the texts matches, or null: the record may be stored.
 * @example privacyMatch(['*secret*'], ['deploy', 'uses MY_SECRET']) // '*secret*'
 */
export function privacyMatch(globs: readonly string[], texts: readonly string[]): string | null {
  if (globs.length === 0) return null;
  for (const text of texts) {
    const lower = text.toLowerCase();
    for (const glob of globs) if (matchesParts(partsOf(glob), lower)) return glob;
  }
  return null;
}
