/**
 * One glob as an anchored regex (picomatch's), remembered: a compile meets the same
 * globs again and again (every pack's, the self-protection rule's), and picomatch, with
 * its loading, was about a third of a compile after an edit. The globs of an earlier
 * compile can be handed in (the policy cache keeps them: engine/host/cache/compile-memo.ts),
 * so a compile that meets only known globs never loads picomatch.
 */
import type picomatchType from 'picomatch';
import type { RegexSource } from '../types';
import { globLiterals } from './glob-literals';
import { safeMatching } from './linear-program';
import { rememberedTable } from './remembered';

/** Never matches an absolute path nor one that climbs out of the project. */
const RELATIVE_ONLY = '(?!/|\\.\\./)';
const remembered = rememberedTable<RegexSource | null>(5000);
let picomatchModule: typeof picomatchType | undefined;

/**
 * The anchored regex for one glob, or null when picomatch cannot compile it. Each call
 * gets an object of its own.
 * @example globRegex('/etc/**') // matches '/etc/hosts', not 'etc/hosts'
 */
export function globRegex(glob: string): RegexSource | null {
  const found = remembered.get(glob, () => makeGlobRegex(glob));
  return found && copyOf(found);
}

/**
 * Every glob this process turned into a regex (or found none for), oldest first, for a
 * cache that keeps them across processes.
 * @example globRegexes() // [['src/**', { source: '^(?!/|\\.\\./)...', flags: 's', globLiterals: ['src/', ''] }]]
 */
export function globRegexes(): Array<[string, RegexSource | null]> {
  return remembered.entries();
}

/**
 * Regexes an earlier process of the same engine made, taken as this process's own.
 * @example rememberGlobRegexes([['src/**', { source: '...', flags: 's' }]])
 */
export function rememberGlobRegexes(entries: ReadonlyArray<readonly [string, RegexSource | null]>): void {
  remembered.remember(entries);
}

function makeGlobRegex(glob: string): RegexSource | null {
  // Loaded at the first glob no earlier compile knew.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const picomatch = (picomatchModule ??= require('picomatch') as typeof picomatchType);
  let regex: RegExp;
  try {
    regex = picomatch.makeRe(glob, { dot: true });
  } catch {
    return null;
  }
  // picomatch returns this never-matching regex when it gives up on a glob (e.g. "{a,b").
  if (regex.source === '$^') return null;
  const source = glob.startsWith('/') ? regex.source : `^${RELATIVE_ONLY}${regex.source.replace(/^\^/, '')}`;
  // `s`: picomatch's `**` and `*` are built on `.`, which stops at a new line without it,
  // and a file name may hold one: `secrets/a<LF>b` must be caught by `secrets/**`.
  const flags = regex.flags.includes('s') ? regex.flags : `${regex.flags}s`;
  // Kept even when both are empty: a runner would otherwise read them out of the source
  // again at every event that checks a path (~0.1-0.2 ms for the self-protection rule's
  // globs without a literal, `policies.yaml` and the folders above the guarded files).
  const normalized = source.normalize('NFC');
  // A plain path (most self-protection globs) is its own literal: no regex to read.
  const { prefix, required } = isPlainPath(glob) ? { prefix: glob, required: glob } : globLiterals({ source: normalized, flags });
  // A glob that may backtrack for long (`**\/a*a*a*b/**` on a path of `a`s) is matched by
  // a linear-time program: the form the runner matches, NFC as path-views.ts reads it.
  return { source, flags, globLiterals: [prefix, required], ...safeMatching(normalized, flags, starRuns(glob)) };
}

/**
 * True when the glob names one path, which picomatch's regex matches alone: printable ASCII
 * without a space, a glob character (nor `$`, `^`, `|`), and no empty, `.` or `..` folder.
 * @example isPlainPath('/home/u/.claude/settings.json') // true
 */
export function isPlainPath(glob: string): boolean {
  if (!/^[!-~]+$/.test(glob) || /[*?[\]{}()!+@\\$^|]/.test(glob)) return false;
  return glob.split('/').every((segment, i) => (segment !== '' || i === 0) && segment !== '.' && segment !== '..');
}

/**
 * How many runs of `*` the glob has, for safeMatching; any extglob or negation (`(`, `!`,
 * `+`, `@`, which picomatch turns into repeated groups or lookaheads) counts as many.
 * @example starRuns('**\/*.test.*') // 3
 */
function starRuns(glob: string): number {
  if (/[()!+@]/.test(glob)) return Infinity;
  return glob.split(/\*+/).length - 1;
}

function copyOf(regex: RegexSource): RegexSource {
  // The linear program is shared: nothing changes it once made.
  return regex.globLiterals ? { ...regex, globLiterals: [...regex.globLiterals] } : { ...regex };
}
