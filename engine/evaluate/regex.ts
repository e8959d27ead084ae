/**
 * Compiled policies keep regular expressions as `{ source, flags }`; this turns them into
 * matchers once and reuses them for every event. No pattern a policy writes backtracks
 * without bound. A policy expression (`command`, `let.extract`, a regex in `when`) that may
 * backtrack catastrophically (flagged by regex-safety.ts at compile time), or any one on a
 * long text, runs under a watchdog that stops it after WATCHDOG_MS. A glob or `*` wildcard
 * the compiler flagged runs its linear-time program (linear-match.ts), or the watchdog.
 */
import type { Script } from 'vm';
import type { RegexSource } from '../types';
import type * as LinearMatchModule from './linear-match';
import type * as RegexSafetyModule from './regex-safety';
import { callWithin, TIMED_OUT } from './watchdog';

const byObject = new WeakMap<RegexSource, RegExp>();
const byText = new Map<string, RegExp>();
const classified = new Map<string, boolean>();

/**
 * Texts longer than this are matched under the watchdog even by unflagged patterns: a
 * quadratic pattern (`a.*b`) stays under ~30 ms up to here.
 */
export const NATIVE_TEXT_LIMIT = 4096;

/** How long one guarded match may run before it is stopped: wall time, so generous enough that a loaded machine never trips it. */
export const WATCHDOG_MS = 1000;

/**
 * How long the policy's `log.redact` patterns may take on one decision record (or one text,
 * engine/host/redact.ts): a record's patterns take well under a millisecond; past it, the
 * text they were given is redacted whole.
 */
export const REDACT_WATCHDOG_MS = 250;

/** A policy expression that ran past the watchdog: it backtracked catastrophically on this text. */
export class UnsafeRegexError extends Error {
  constructor(readonly source: string, readonly reason: string, readonly timeoutMs = WATCHDOG_MS, shown = `/${source}/`) {
    super(`${shown} ran longer than ${timeoutMs} ms on this text and was stopped (${reason})`);
    this.name = 'UnsafeRegexError';
  }
}

let budget: { now: () => number; until: number } | null = null;

/**
 * Caps every guarded match of the evaluation that starts at the time left until `until`
 * (on `now`'s clock, deadline_ms after the evaluation's start), so that many stopped
 * patterns cannot add up past deadline_ms; null: each gets the full watchdog.
 * @example setMatchBudget({ now: Date.now, until: Date.now() + 5000 })
 */
export function setMatchBudget(next: { now: () => number; until: number } | null): void {
  budget = next;
}

/**
 * `work()`, a match the runner cannot make linear (a glob a walk leaves to picomatch), under
 * the watchdog for what is left of deadline_ms (`cap` without a deadline); UnsafeRegexError
 * naming `glob` when it is stopped, which a rule that denies, asks or blocks answers with
 * its `oversized` outcome.
 * @example withinWatchdog('**\/[a]*b', 'a walk of the files it may match', () => walk())
 */
export function withinWatchdog<T>(glob: string, what: string, work: () => T, cap = WATCHDOG_MS): T {
  const ms = Math.max(1, Math.ceil(budget ? budget.until - budget.now() : cap));
  const settled = callWithin(ms, work);
  if (settled === TIMED_OUT) throw new UnsafeRegexError(glob, what, ms, `glob "${glob}"`);
  return settled;
}

/**
 * The RegExp for a source, cached by object and by source+flags. The `g` and `y` flags are
 * dropped: the evaluator only tests and matches once, and they would make `test` stateful.
 * @example toRegExp({ source: '^src/', flags: '' }).test('src/a.ts') // true
 */
export function toRegExp(r: RegexSource): RegExp {
  const cached = byObject.get(r);
  if (cached) return cached;
  const flags = r.flags.includes('g') || r.flags.includes('y') ? r.flags.replace(/[gy]/g, '') : r.flags;
  const key = `${flags}/${r.source}`;
  let re = byText.get(key);
  if (!re) {
    re = new RegExp(r.source, flags);
    byText.set(key, re);
  }
  byObject.set(r, re);
  return re;
}

/**
 * True when any of the expressions matches `text`. For compiler-built patterns (globs,
 * `*` wildcards): natively, or, for one the compiler guarded, as guardedTest does.
 * @example anyMatch([{ source: 'a', flags: '' }], 'cat') // true
 */
export function anyMatch(sources: readonly RegexSource[], text: string): boolean {
  for (let i = 0; i < sources.length; i++) {
    const r = sources[i];
    if (r.guard === true ? guardedTest(r, text, toRegExp(r)) : toRegExp(r).test(text)) return true;
  }
  return false;
}

/**
 * Whether a compiler-built pattern the compiler guarded (`guard`) matches `text`, in bounded
 * time: by its linear program (`ignoreCase`: as with the `i` flag added), or, without one,
 * `native` under the watchdog (UnsafeRegexError when stopped).
 * @example guardedTest(globRegex('**\/a*a*a*a*a*a*a*b/**')!, 'a'.repeat(5000), re) // false, at once
 */
export function guardedTest(r: RegexSource, text: string, native: RegExp, ignoreCase = false): boolean {
  if (r.linear) return linearMatch().linearTest(r.linear, text, ignoreCase);
  return execGuarded(r, native, text) !== null;
}

/**
 * True when any of the policy-written expressions matches `text`, in bounded time.
 * Throws UnsafeRegexError when a match runs past the watchdog.
 * @example policyRegexTest([{ source: '(a+)+$', flags: '', guard: true }], 'a'.repeat(40) + '!') // throws after 1 s
 */
export function policyRegexTest(sources: readonly RegexSource[], text: string): boolean {
  for (let i = 0; i < sources.length; i++) if (policyRegexExec(sources[i], text) !== null) return true;
  return false;
}

/**
 * The first match of a policy-written expression: the whole match then each group
 * (undefined when a group took no part), or null.
 * @example policyRegexExec({ source: '^v:\\s*(\\S+)', flags: 'm' }, 'x\nv: 3')?.[1] // '3'
 */
export function policyRegexExec(r: RegexSource, text: string): Array<string | undefined> | null {
  // Most patterns cannot match most commands: a missing required literal settles it without the engine.
  if (r.literal !== undefined || r.anyOf !== undefined || r.allOf !== undefined) {
    const haystack = r.flags.includes('i') ? lowerCase(text) : text;
    if (r.literal !== undefined && !haystack.includes(r.literal)) return null;
    if (r.anyOf !== undefined && !r.anyOf.some((l) => haystack.includes(l))) return null;
    if (r.allOf !== undefined && !r.allOf.every((l) => haystack.includes(l))) return null;
  }
  const re = toRegExp(r);
  const m = needsWatchdog(r) || text.length > NATIVE_TEXT_LIMIT ? execGuarded(r, re, text) : re.exec(text);
  return m ? Array.from(m) : null;
}

/**
 * The compiler's verdicts on regexes the runner meets by their text alone (the literals in
 * `when` and `expr`, which JSONata compiles itself), taken before those run, so that the
 * classifier is never loaded for them.
 * @example knowRegexes(rule.regexes)
 */
export function knowRegexes(regexes: readonly RegexSource[] | undefined): void {
  if (regexes) for (const r of regexes) if (r.guard !== undefined) classified.set(`${r.flags}/${r.source}`, r.guard);
}

/**
 * JSONata's regex engine for policy expressions (its `RegexEngine` option): each match of a
 * literal in `when` or `expr` (`$match`, `$contains`, `$replace`, `$split`, `~>`) runs as
 * policyRegexExec runs it: a pattern that may backtrack catastrophically, or any on a long
 * text, under the watchdog (UnsafeRegexError when stopped, which a rule that denies, asks
 * or blocks answers with its `oversized` outcome, not on_error).
 * @example jsonata(text, { RegexEngine: PolicyRegExp as unknown as RegExpConstructor })
 */
export class PolicyRegExp {
  lastIndex = 0;
  private readonly re: RegExp;
  private readonly r: RegexSource;

  constructor(pattern: RegExp) {
    this.re = new RegExp(pattern.source, pattern.flags);
    this.r = { source: pattern.source, flags: pattern.flags.replace(/[gy]/g, '') };
  }

  exec(text: string): RegExpExecArray | null {
    this.re.lastIndex = this.lastIndex;
    const m = needsWatchdog(this.r) || text.length > NATIVE_TEXT_LIMIT ? execGuarded(this.r, this.re, text) : this.re.exec(text);
    this.lastIndex = this.re.lastIndex;
    return m;
  }
}

let lastText = '';
let lastLower = '';
/** The text lower-cased, remembered for the next pattern tested on the same text. */
function lowerCase(text: string): string {
  if (text !== lastText) {
    lastText = text;
    lastLower = text.toLowerCase();
  }
  return lastLower;
}

function needsWatchdog(r: RegexSource): boolean {
  if (r.guard !== undefined) return r.guard;
  // Hand-built sources (tests, older artefacts) are classified once per process.
  const key = `${r.flags}/${r.source}`;
  let flagged = classified.get(key);
  if (flagged === undefined) classified.set(key, (flagged = regexSafety().isSuperLinear(r.source, r.flags)));
  return flagged;
}

/** Where a guarded match finds its regex and text: a global slot, set only during the match. */
const SLOT = '__hookpolicyGuardedMatch';
type Slots = Record<string, { re: RegExp; text: string } | undefined>;
/** The script and the global it runs against (this context's, which under a test runner is not `globalThis`). */
let guardedMatch: { script: Script; global: Slots } | null = null;

/**
 * Runs one match in a script with a timeout: V8 interrupts a backtracking regex there,
 * which it cannot do for code on the main path. The script runs in this context (a new
 * context would cost ~0.5 ms more at the first match); each call costs ~0.07 ms (the
 * watchdog thread), so only guarded matches pay.
 */
function execGuarded(r: RegexSource, re: RegExp, text: string): RegExpExecArray | null {
  if (!guardedMatch) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vm = require('vm') as typeof import('vm');
    guardedMatch = { script: new vm.Script(`globalThis.${SLOT}.re.exec(globalThis.${SLOT}.text)`), global: vm.runInThisContext('globalThis') as Slots };
  }
  const { script, global } = guardedMatch;
  const left = budget ? budget.until - budget.now() : WATCHDOG_MS;
  const timeout = Math.max(1, Math.min(WATCHDOG_MS, Math.ceil(left)));
  global[SLOT] = { re, text };
  try {
    return script.runInThisContext({ timeout }) as RegExpExecArray | null;
  } catch (err) {
    if ((err as { code?: string })?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      const reason = timeout < WATCHDOG_MS ? `the time left of deadline_ms, on a ${text.length}-character text`
        : regexSafety().superLinearReason(r.source, r.flags) ?? `a ${text.length}-character text`;
      throw new UnsafeRegexError(r.source, reason, timeout);
    }
    throw err;
  } finally {
    delete global[SLOT];
  }
}

let linearMatchModule: typeof LinearMatchModule | undefined;

/** The linear-time matcher, loaded at the first guarded glob or wildcard (dist/linear-match.cjs beside the bundle). */
function linearMatch(): typeof LinearMatchModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (linearMatchModule ??= require('./linear-match') as typeof LinearMatchModule);
}

let regexSafetyModule: typeof RegexSafetyModule | undefined;

/**
 * The classifier, loaded only when needed: compiled policies carry its verdict (`guard`),
 * so the runner needs it only for a hand-built source or to explain a stopped match
 * (dist/regex-safety.cjs beside the bundle; a tenth of the runner it would otherwise load).
 */
function regexSafety(): typeof RegexSafetyModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (regexSafetyModule ??= require('./regex-safety') as typeof RegexSafetyModule);
}
