/**
 * Compiles `paths` globs into regexes that respect the inside/outside-the-project split:
 * a relative glob only matches project-relative paths, an absolute glob only absolute ones.
 */
import picomatch from 'picomatch';
import type { CompiledPathFilter, RegexSource } from '../types';
import type { CompileContext } from './context';
import { asList, at, atOffset, isObject, report } from './context';
import { unclosedBracket } from './glob-brackets';
import { globLiterals } from '../evaluate/glob-literals';
import { toPointer } from '../load/source-map';

const LISTS = ['allow', 'deny', 'except'] as const;

/** Never matches an absolute path nor one that climbs out of the project. */
const RELATIVE_ONLY = '(?!/|\\.\\./)';

/**
 * The rule's path filter, or null without `paths`. Bad globs are reported and left out,
 * among them a `[` or `(` never closed, which picomatch would read as a literal character.
 * @example compilePaths(ctx, { deny: ['.env'] }, 0).deny // [{ source: '^(?!/|\\.\\./)(?:^(?:\\.env)$)$', flags: 's' }]
 */
export function compilePaths(ctx: CompileContext, paths: unknown, ruleIndex: number): CompiledPathFilter | null {
  if (!isObject(paths)) return null;
  const filter: CompiledPathFilter = { allow: null, deny: null, except: null, globs: {} };
  for (const list of LISTS) {
    if (paths[list] === undefined) continue;
    const globs = asList(paths[list]);
    filter.globs[list] = globs;
    filter[list] = globs.flatMap((glob, i) => {
      const pointer = toPointer(['rules', ruleIndex, 'paths', list, i]);
      const open = unclosedBracket(glob);
      if (open >= 0) {
        const hint = `close it, or write \\${glob[open]} for the character itself`;
        report(ctx, 'invalid-glob', `Invalid glob "${glob}": "${glob[open]}" is never closed`, atOffset(ctx, pointer, open), hint);
        return [];
      }
      const regex = globRegex(glob);
      if (regex) return [regex];
      report(ctx, 'invalid-glob', `Invalid glob "${glob}"`, at(ctx, pointer));
      return [];
    });
  }
  return filter;
}

/**
 * The anchored regex for one glob, or null when picomatch cannot compile it.
 * @example globRegex('/etc/**') // matches '/etc/hosts', not 'etc/hosts'
 */
export function globRegex(glob: string): RegexSource | null {
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
  const { prefix, required } = globLiterals({ source: source.normalize('NFC'), flags });
  return prefix === '' && required === '' ? { source, flags } : { source, flags, globLiterals: [prefix, required] };
}
