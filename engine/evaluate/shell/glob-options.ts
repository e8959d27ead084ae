/**
 * Bash's options that change what a pathname pattern names, as a command sets them:
 * `shopt -s nocaseglob` (`.[C]LAUDE` is `.claude`), `dotglob` (`?claude` is `.claude`),
 * `globstar` (`**` crosses folders), `nullglob` (a pattern that matches nothing is
 * dropped), `set -f` / `set -o noglob` (no pattern at all), and `bash -O NAME` / `-f` for a
 * nested shell. Where an option may or may not be on (set inside a branch or a loop, from a
 * word that is not static, by a trap), it is `maybe`: the expansion then names what either
 * would. `extglob` and `failglob` are not tracked: an extended pattern is always read as
 * one (without the option bash refuses the line, and nothing runs), and `failglob` only
 * keeps a command from running.
 */
import type { Arg } from './words';

export type Tri = boolean | 'maybe';

export interface GlobOptions {
  nocaseglob: Tri;
  dotglob: Tri;
  nullglob: Tri;
  globstar: Tri;
  noglob: Tri;
}

export type GlobOption = keyof GlobOptions;

/** What a command does to the options: sets some on or off, or something that cannot be known. */
export type GlobChange = { set: Partial<Record<GlobOption, boolean>> } | 'unknown';

/** Bash's defaults: every option off. */
export const BASH_DEFAULTS: GlobOptions = { nocaseglob: false, dotglob: false, nullglob: false, globstar: false, noglob: false };

const SHOPT_NAMES: ReadonlySet<string> = new Set(['nocaseglob', 'dotglob', 'nullglob', 'globstar']);

/**
 * `shopt -s|-u [-o] NAME...`: the options it turns on or off; null when it only prints.
 * @example shoptChange(['-s', 'dotglob', 'nocaseglob']) // { set: { dotglob: true, nocaseglob: true } }
 */
export function shoptChange(args: readonly Arg[]): GlobChange | null {
  let on: boolean | null = null;
  let setOptions = false;
  const names: string[] = [];
  for (const arg of args) {
    if (arg === null) return 'unknown';
    if (/^-[supqo]+$/.test(arg) && names.length === 0) {
      if (arg.includes('s')) on = true;
      if (arg.includes('u')) on = false;
      if (arg.includes('o')) setOptions = true;
    } else if (arg !== '--') names.push(arg);
  }
  if (on === null) return null;
  const set: Partial<Record<GlobOption, boolean>> = {};
  for (const name of names) {
    if (setOptions ? name === 'noglob' : SHOPT_NAMES.has(name)) set[name as GlobOption] = on;
  }
  return Object.keys(set).length > 0 ? { set } : null;
}

/**
 * `set -f` / `+f` (also in a bundle, `-euf`) and `set -o noglob` / `+o noglob`; null when it
 * changes no pattern option (`set -e`, `set -- a b`).
 * @example setChange(['-euf']) // { set: { noglob: true } }
 */
export function setChange(args: readonly Arg[]): GlobChange | null {
  let noglob: boolean | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null) return 'unknown';
    if (arg === '--' || arg === '-' || !/^[-+]/.test(arg)) break;
    const on = arg.startsWith('-');
    if (arg === '-o' || arg === '+o') {
      const name = args[++i];
      if (name === null) return 'unknown';
      if (name === 'noglob') noglob = on;
    } else if (arg.slice(1).includes('f')) noglob = on;
  }
  return noglob === undefined ? null : { set: { noglob } };
}

/**
 * The options a nested shell starts with: bash's defaults (a child does not inherit them),
 * and its own `-O NAME` / `+O NAME`, `-f`, `-o noglob`.
 * @example shellChange(['-O', 'dotglob', '-c', 'rm ?claude']) // { set: { dotglob: true } }
 */
export function shellChange(args: readonly Arg[]): GlobChange | null {
  const set: Partial<Record<GlobOption, boolean>> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === null) return 'unknown';
    if (arg === '--' || !/^[-+]/.test(arg) || arg === '-') break;
    const on = arg.startsWith('-');
    if (arg === '-O' || arg === '+O' || arg === '-o' || arg === '+o') {
      const name = args[++i];
      if (name === null) return 'unknown';
      if (arg.endsWith('O') ? name !== undefined && SHOPT_NAMES.has(name) : name === 'noglob') set[(arg.endsWith('O') ? name : 'noglob') as GlobOption] = on;
    } else if (/^[-+][A-Za-z]+$/.test(arg) && arg.includes('f')) set.noglob = on;
  }
  return Object.keys(set).length > 0 ? { set } : null;
}

/**
 * The options after a change. In a branch or a loop (`merge`), an option the change moves
 * may or may not be moved when a later command runs: it becomes `maybe`.
 * @example applyChange(BASH_DEFAULTS, { set: { dotglob: true } }, true).dotglob // 'maybe'
 */
export function applyChange(options: GlobOptions, change: GlobChange, merge: boolean): GlobOptions {
  if (change === 'unknown') return { nocaseglob: 'maybe', dotglob: 'maybe', nullglob: 'maybe', globstar: 'maybe', noglob: 'maybe' };
  const out = { ...options };
  for (const [name, on] of Object.entries(change.set) as Array<[GlobOption, boolean]>) {
    out[name] = merge && options[name] !== on ? 'maybe' : on;
  }
  return out;
}

/**
 * Options that may each be as in `a` or as in `b` (two ways through a branch, a function
 * defined twice).
 * @example unionOptions({ ...BASH_DEFAULTS, dotglob: true }, BASH_DEFAULTS).dotglob // 'maybe'
 */
export function unionOptions(a: GlobOptions, b: GlobOptions): GlobOptions {
  const out = { ...a };
  for (const name of Object.keys(a) as GlobOption[]) if (a[name] !== b[name]) out[name] = 'maybe';
  return out;
}
