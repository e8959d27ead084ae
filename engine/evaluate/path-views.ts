/**
 * Judging a touched path by every path it may really be. Its readings: as written, where
 * it leads link by link through symlinks (a dangling link included: writing through it
 * creates its target), with backslashes as name characters, and the names Windows opens
 * the same file by (trailing dots and spaces, `:stream` suffixes dropped). A restricting
 * rule catches a path when any reading matches `deny` (case and Unicode folded) or lies
 * outside `allow`, and `except` exempts it only when every reading is exempt. An
 * approving rule (`allow` outcome) holds for a path only when every reading is caught,
 * compared strictly. Ambiguity falls on the side of catching, and of not approving.
 */
import type { CompiledPathFilter, RegexSource } from '../types';
import { normalizePath } from './paths';
import { guardedTest, toRegExp } from './regex';

/** The readings of one touched path. */
export interface PathView {
  /** As written, normalized: project-relative, or absolute outside the project. */
  path: string;
  /** Where it really leads once symlinks are followed, when that differs. */
  resolved: string | null;
  /** With backslashes as characters of a name (POSIX projects), when that differs. */
  literal: string | null;
  /** Where it leads link by link before its end (`a -> .env -> real/env`: `.env`), when that differs. */
  via?: string[];
  /** Other names Windows opens the same file by (`.env.`, `.env::$DATA` -> `.env`). */
  aliases?: string[];
  /** The guarded files it is by identity, whatever its name (a hard link of one: evaluate/guard-identity.ts). */
  same?: string[];
  /** On Windows, the path (as it finally leads) has a segment that may be an 8.3 short name (`CREDEN~1.JSO`): which file it is cannot be known. */
  ambiguous?: boolean;
  /** The project is on a POSIX root, where a path starting `C:/` is a folder named `C:` inside it, not a drive. */
  noDrives?: boolean;
}

/** Where a path leads, as the host resolves it: the end, and the links passed on the way. */
export interface Resolution {
  real: string | null;
  via: string[];
}

export interface PathViewOptions {
  /** Windows file-system rules: 8.3 short names. Implied by a Windows project root. */
  windows?: boolean;
  /** The guarded files the path (as it finally leads) is by identity (GuardIdentity.namesOf). */
  sameFile?: (target: string) => string[];
}

/**
 * The readings of a raw path. Backslashes are separators on a Windows project root, and
 * both separators and name characters on a POSIX one. `resolve` is the host's answer:
 * a path (the end) or a Resolution (the end and the links on the way).
 * @example pathView('src/link/a.ts', '/p', '/p', (p) => (p === 'src/link/a.ts' ? '/etc/a.ts' : p))
 *   // { path: 'src/link/a.ts', resolved: '/etc/a.ts', literal: null }
 */
export function pathView(
  raw: string,
  cwd: string,
  projectRoot: string,
  resolve?: (path: string) => string | Resolution | null,
  options: PathViewOptions = {},
): PathView {
  const path = normalizePath(raw, cwd, projectRoot);
  const posixRoot = projectRoot.startsWith('/');
  const literalPath = posixRoot && raw.includes('\\') ? normalizePath(raw, cwd, projectRoot, { backslash: 'literal' }) : null;
  const answer = resolve ? resolve(path) : null;
  const found = typeof answer === 'string' || answer === null ? { real: answer, via: [] } : answer;
  const toView = (p: string) => normalizePath(p, projectRoot, projectRoot);
  const resolved = found.real === null || found.real === '' ? null : toView(found.real);
  const view: PathView = { path, resolved: resolved === path ? null : resolved, literal: literalPath === path ? null : literalPath };
  const via = [...new Set(found.via.filter((v) => v !== '').map(toView))].filter((v) => v !== path && v !== resolved);
  if (via.length > 0) view.via = via;
  const same = options.sameFile ? options.sameFile(resolved ?? path).filter((p) => p !== path && p !== resolved) : [];
  if (same.length > 0) view.same = same;
  const aliases = [...new Set(plainReadings(view).map(windowsName))].filter((a) => !plainReadings(view).includes(a));
  if (aliases.length > 0) view.aliases = aliases;
  if ((options.windows === true || !posixRoot) && SHORT_NAME.test(`/${view.resolved ?? path}/`)) view.ambiguous = true;
  if (posixRoot && plainReadings(view).some((r) => DRIVE_PATH.test(r))) view.noDrives = true;
  return view;
}

/** A segment shaped like an 8.3 short name: up to six characters, `~`, digits, an extension of up to three. */
const SHORT_NAME = /\/[^/\s.~"*:<>?\\|]{1,6}~\d{1,6}(?:\.[^/\s.~"*:<>?\\|]{0,3})?\//i;

/**
 * The name Windows opens for a path: each segment without an alternate data stream
 * (`file::$DATA`, `file:stream`) and without trailing dots and spaces. A drive (`D:`) stays.
 * @example windowsName('src/.env. ') // 'src/.env'
 * @example windowsName('.git::$INDEX_ALLOCATION/config') // '.git/config'
 */
export function windowsName(path: string): string {
  return path
    .split('/')
    .map((segment, i) => {
      if (i === 0 && /^[A-Za-z]:$/.test(segment)) return segment;
      const stripped = segment.replace(/:.*$/, '').replace(/[. ]+$/, '');
      return stripped === '' ? segment : stripped;
    })
    .join('/');
}

/** The readings as written, resolved, literal, link by link and by identity. */
function plainReadings(view: PathView): string[] {
  const out = [view.path];
  for (const p of [view.resolved, view.literal, ...(view.via ?? []), ...(view.same ?? [])]) if (p !== null && !out.includes(p)) out.push(p);
  return out;
}

// A view is judged by every rule with `paths` on the event: its readings are worked out
// once per view (views are not changed once made), not once per rule.
const readingsOf = new WeakMap<PathView, string[]>();
const foldedOf = new WeakMap<PathView, string[]>();

/** Every reading, NFC-normalized. */
let lastView: PathView | null = null;
let lastReadings: string[] = [];

function readings(view: PathView): string[] {
  if (view === lastView) return lastReadings;
  let all = readingsOf.get(view);
  if (all === undefined) {
    all = [...new Set([...plainReadings(view), ...(view.aliases ?? [])].map((p) => p.normalize('NFC')))];
    readingsOf.set(view, all);
  }
  lastView = view;
  lastReadings = all;
  return all;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Code points some file systems ignore in names (HFS+): zero-width characters, direction marks, BOM. */
const IGNORABLE = /[\u00AD\u034F\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFE00-\uFE0F\uFEFF]/g;

/**
 * Readings for matching `deny` case-insensitively beyond what a regex's `i` flag folds:
 * full upper and lower case (`ſ` is `S`, `K` (Kelvin) is `k`, `ı` is `I`), compatibility
 * forms (NFKC), ignorable code points removed.
 */
let lastFoldedView: PathView | null = null;
let lastFolded: string[] = [];

function foldedReadings(view: PathView): string[] {
  if (view === lastFoldedView) return lastFolded;
  let folded = foldedOf.get(view);
  if (folded === undefined) {
    folded = foldAll(readings(view));
    foldedOf.set(view, folded);
  }
  lastFoldedView = view;
  lastFolded = folded;
  return folded;
}

function foldAll(all: string[]): string[] {
  // ASCII folds exactly as the regex's `i` flag does.
  if (all.every((r) => NON_ASCII.test(r) === false)) return all;
  const out = new Set<string>();
  for (const r of all) {
    for (const form of [r, r.normalize('NFKC'), r.replace(IGNORABLE, '')]) {
      out.add(form);
      out.add(form.toLowerCase());
      out.add(form.toUpperCase());
    }
  }
  return [...out];
}

/**
 * True when the filter catches the path (a rule that restricts): a reading matches `deny`
 * or lies outside `allow`, and not every reading is exempted by `except`. An ambiguous
 * path (a short name) is caught by any deny or allow list.
 * @example isCaught(pathFilter({ deny: ['.env'] }), { path: '.ENV', resolved: null, literal: null }) // true
 */
export function isCaught(filter: CompiledPathFilter, view: PathView): boolean {
  // The verdict depends only on the filter and on what the view reads as, so it is kept
  // per filter and reading: the same path met again (each event of a session, each rule
  // sharing a filter) is one lookup instead of the globs.
  const key = verdictKey(view);
  let known = caughtVerdicts.get(filter);
  if (known === undefined) caughtVerdicts.set(filter, (known = new Map()));
  let verdict = known.get(key);
  if (verdict === undefined) {
    verdict = judgeCaught(filter, view);
    if (known.size >= MAX_VERDICTS) known.clear();
    known.set(key, verdict);
  }
  return verdict;
}

const caughtVerdicts = new WeakMap<CompiledPathFilter, Map<string, boolean>>();
const verdictKeys = new WeakMap<PathView, string>();
const MAX_VERDICTS = 512;

/** Everything isCaught reads of a view, as one string: ambiguity, drives, the readings. */
function verdictKey(view: PathView): string {
  let key = verdictKeys.get(view);
  if (key === undefined) {
    key = `${view.ambiguous ? 1 : 0}${view.noDrives === true ? 1 : 0}\0${readings(view).join('\0')}`;
    verdictKeys.set(view, key);
  }
  return key;
}

function judgeCaught(filter: CompiledPathFilter, view: PathView): boolean {
  const all = readings(view);
  const drives = view.noDrives !== true;
  if (!view.ambiguous && filter.except && all.every((p) => matchesAny(filter.except as RegexSource[], p, false, drives))) return false;
  if (view.ambiguous && (filter.deny || filter.allow)) return true;
  if (filter.deny && foldedReadings(view).some((p) => matchesAny(filter.deny as RegexSource[], p, true, drives))) return true;
  return filter.allow !== null && all.some((p) => !matchesAny(filter.allow as RegexSource[], p, false, drives));
}

/**
 * True when the filter surely catches the path (a rule that approves): every reading
 * matches `deny` exactly (case-sensitively), or lies outside `allow` however its case
 * is folded, and no reading may be exempted by `except`. An ambiguous path never is.
 * @example isSurelyCaught(pathFilter({ deny: ['docs/**'] }), { path: 'docs/a', resolved: '/etc/a', literal: null }) // false
 */
export function isSurelyCaught(filter: CompiledPathFilter, view: PathView): boolean {
  if (view.ambiguous) return false;
  const folded = foldedReadings(view);
  const drives = view.noDrives !== true;
  if (filter.except && folded.some((p) => matchesAny(filter.except as RegexSource[], p, true, drives))) return false;
  const outsideAllow = filter.allow !== null && !folded.some((p) => matchesAny(filter.allow as RegexSource[], p, true, drives));
  if (outsideAllow) return true;
  return filter.deny !== null && readings(view).every((p) => matchesAny(filter.deny as RegexSource[], p, false, drives));
}

const DRIVE_PATH = /^[A-Za-z]:(?:\/|$)/;
/** A compiled glob that starts with a drive letter (`D:/**`, or any drive: `[A-Za-z]:/**`), with or without the relative-only guard. */
const DRIVE_GLOB = /^\^(?:\(\?!\/\|\\\.\\\.\/\))?\(\?:(?:[A-Za-z]|\[A-Za-z\]|\[a-zA-Z\]):/;

/**
 * True when one of the compiled globs matches the path. A path on a drive (`D:/x`) is only
 * matched by globs naming a drive: the compiler's relative-only guard rules out `/` and
 * `../` but not `D:/`. With `drives` false (a POSIX project), `C:/x` is a relative path.
 * @example matchesAny([globRegex('**')], 'D:/x', false) // false
 */
export function matchesAny(globs: readonly RegexSource[], path: string, ignoreCase: boolean, drives = true): boolean {
  const onDrive = drives && isDrivePath(path);
  for (let i = 0; i < globs.length; i++) {
    const glob = globs[i];
    if (onDrive && !DRIVE_GLOB.test(glob.source)) continue;
    const pair = matchersOf(glob);
    // A path that does not start as the glob's literal start, or lacks a text every match
    // holds, cannot match: no regex run, and in a one-event process none compiled.
    if (pair.prefix !== '' && !startsAs(path, pair.prefix, ignoreCase)) continue;
    if (pair.required !== '' && !(ignoreCase ? lowerCase(path).includes(pair.requiredLower) : path.includes(pair.required))) continue;
    const re = ignoreCase ? (pair.folded ??= toRegExp(variant(glob, true))) : (pair.exact ??= toRegExp(variant(glob, false)));
    // A glob the compiler found may backtrack for long: its linear-time program, or the watchdog.
    if (glob.guard === true ? guardedTest(glob, path, re, ignoreCase) : re.test(path)) return true;
  }
  return false;
}

/**
 * True unless `path` surely does not start with the ASCII `prefix`: case-folded like the
 * regex's `i` flag when `ignoreCase`, where a non-ASCII character of the path is left to
 * the regex (with the `u` flag, `ſ` matches `s`).
 */
function startsAs(path: string, prefix: string, ignoreCase: boolean): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) {
    const c = path.charCodeAt(i);
    const p = prefix.charCodeAt(i);
    if (c === p) continue;
    if (!ignoreCase) return false;
    if (c > 0x7f) return true;
    const lower = c | 0x20;
    if (lower !== (p | 0x20) || lower < 0x61 || lower > 0x7a) return false;
  }
  return true;
}

let lastPath = '';
let lastLower = '';
/** The path lower-cased, remembered for the next glob tested on it. */
function lowerCase(path: string): string {
  if (path !== lastPath) {
    lastPath = path;
    lastLower = path.toLowerCase();
  }
  return lastLower;
}



/** `D:` or `D:/...`: DRIVE_PATH as character tests (it is asked for every rule's every reading). */
function isDrivePath(path: string): boolean {
  const c = path.charCodeAt(0) | 0x20;
  return c >= 0x61 && c <= 0x7a && path.charCodeAt(1) === 0x3a && (path.length === 2 || path.charCodeAt(2) === 0x2f);
}

/** A glob's literal start and two matchers, each compiled at its first use (a one-event process compiles only those it runs). */
interface Matchers {
  prefix: string;
  required: string;
  requiredLower: string;
  exact: RegExp | null;
  folded: RegExp | null;
}

const matchers = new WeakMap<RegexSource, Matchers>();

function matchersOf(glob: RegexSource): Matchers {
  let pair = matchers.get(glob);
  if (pair === undefined) {
    // A glob the compiler did not annotate (a hand-built one) is matched by its regex alone.
    const [prefix, required] = glob.globLiterals ?? NO_LITERALS;
    pair = { prefix, required, requiredLower: required.toLowerCase(), exact: null, folded: null };
    matchers.set(glob, pair);
  }
  return pair;
}

const NO_LITERALS: [string, string] = ['', ''];

/** The glob with an NFC source, or its case-insensitive twin. */
function variant(glob: RegexSource, ignoreCase: boolean): RegexSource {
  const source = glob.source.normalize('NFC');
  if (ignoreCase) return { source, flags: glob.flags.includes('i') ? glob.flags : `${glob.flags}i` };
  return source === glob.source ? glob : { source, flags: glob.flags };
}
