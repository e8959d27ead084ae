/**
 * The secret formats derived at build time from gitleaks' maintained rules
 * (scripts/secret-formats.mjs, dist/secret-formats.json): read once per process when a
 * text first needs them, each pattern compiled when a text first holds one of its
 * keywords. A match whose secret part has less entropy than its rule asks (a word, a
 * placeholder) is left alone, as gitleaks leaves it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { REDACTED } from './redact-formats';

interface DerivedFormat {
  id: string;
  source: string;
  flags: string;
  keywords: string[];
  entropy?: number;
  compiled?: RegExp;
}

let formats: DerivedFormat[] | null = null;

/** dist/secret-formats.json beside the bundle (or, unbundled, in the project's dist/); [] when missing. */
function derivedFormats(): DerivedFormat[] {
  if (formats) return formats;
  for (const file of [path.join(__dirname, 'secret-formats.json'), path.join(__dirname, '..', '..', 'dist', 'secret-formats.json')]) {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { formats?: DerivedFormat[] };
      if (Array.isArray(parsed.formats)) return (formats = parsed.formats);
    } catch {
      // the next place
    }
  }
  return (formats = []);
}

/** The keywords by their first two characters' codes, built once: a text is scanned once, not once per keyword. */
let byPair: Map<number, string[]> | null = null;

function keywordPairs(): Map<number, string[]> {
  if (byPair) return byPair;
  byPair = new Map();
  for (const keyword of new Set(derivedFormats().flatMap((f) => f.keywords))) {
    const pair = keyword.charCodeAt(0) * 65536 + keyword.charCodeAt(1);
    byPair.set(pair, [...(byPair.get(pair) ?? []), keyword]);
  }
  return byPair;
}

/**
 * The derived formats' keywords that `lower` (a lower-cased text) holds, found in one pass
 * over it (every keyword is two characters or more).
 * @example presentKeywords('token=lin_api_x') // Set { 'lin_api_' }
 */
export function presentKeywords(lower: string): Set<string> {
  const pairs = keywordPairs();
  const present = new Set<string>();
  for (let i = 0; i + 1 < lower.length; i++) {
    const bucket = pairs.get(lower.charCodeAt(i) * 65536 + lower.charCodeAt(i + 1));
    if (bucket === undefined) continue;
    for (const keyword of bucket) if (lower.startsWith(keyword, i)) present.add(keyword);
  }
  return present;
}

/**
 * `text` with each derived format's secret (its first capture group, else the match)
 * replaced by [REDACTED].
 * @example redactDerived('LINEAR=lin_api_0123456789abcdef0123456789abcdef01234567') // 'LINEAR=[REDACTED]'
 */
export function redactDerived(text: string): string {
  const present = presentKeywords(text.toLowerCase());
  if (present.size === 0) return text;
  let out = text;
  for (const f of derivedFormats()) {
    if (!f.keywords.some((k) => present.has(k))) continue;
    f.compiled ??= new RegExp(f.source, `${f.flags}g`);
    out = out.replace(f.compiled, (match: string, ...rest: unknown[]) => {
      // The capture groups come before the match's offset (a number), then the whole text.
      const groups = rest.slice(0, rest.findIndex((g) => typeof g === 'number'));
      const secret = groups.find((g): g is string => typeof g === 'string' && g !== '') ?? match;
      if (secret.includes(REDACTED.slice(0, -1)) || (f.entropy !== undefined && entropy(secret) < f.entropy)) return match;
      return match.replace(secret, REDACTED);
    });
  }
  return out;
}

/** Shannon entropy in bits per character, as gitleaks measures a secret. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
