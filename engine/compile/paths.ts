/**
 * Compiles `paths` globs into regexes that respect the inside/outside-the-project split:
 * a relative glob only matches project-relative paths, an absolute glob only absolute ones.
 */
import type { CompiledPathFilter } from '../types';
import type { CompileContext } from './context';
import { asList, at, atOffset, isObject, report } from './context';
import { unclosedBracket } from './glob-brackets';
import { globRegex } from './glob-regex';
import { toPointer } from '../load/source-map';

const LISTS = ['allow', 'deny', 'except'] as const;

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

