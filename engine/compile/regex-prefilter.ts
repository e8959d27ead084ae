/**
 * What every match of a pattern must contain (engine/compile/required-literal.ts), as the
 * evaluator checks before running it: worked out once per pattern and process, and handed
 * from one compile to the next (the policy cache keeps them: engine/host/cache/compile-memo.ts).
 * Reading a pattern for its literals was about half of compiling the packs' command rules,
 * the same at every compile.
 */
import type { RegexSource } from '../types';
import { rememberedTable } from './remembered';
import { requiredAlternatives, requiredLiteral, requiredLiterals } from './required-literal';

/** The prefilter fields of a compiled pattern. */
export type Prefilter = Pick<RegexSource, 'literal' | 'anyOf' | 'allOf'>;

const remembered = rememberedTable<Prefilter>(5000);

/**
 * The prefilter of `source` under `flags`, a fresh object at each call.
 * @example prefilterOf('\\bgit\\s+push\\b.*--force', '') // { literal: '--force', allOf: ['push', 'git'] }
 */
export function prefilterOf(source: string, flags: string): Prefilter {
  return copyOf(remembered.get(`${flags}/${source}`, () => workOut(source, flags)));
}

/**
 * Every prefilter this process worked out (`flags/source` to prefilter), oldest first.
 * @example regexPrefilters() // [['/\\brm\\s', { literal: 'rm' }]]
 */
export function regexPrefilters(): Array<[string, Prefilter]> {
  return remembered.entries();
}

/**
 * Prefilters an earlier process of the same engine worked out, taken as this process's own.
 * @example rememberRegexPrefilters([['/\\brm\\s', { literal: 'rm' }]])
 */
export function rememberRegexPrefilters(entries: ReadonlyArray<readonly [string, Prefilter]>): void {
  remembered.remember(entries);
}

function workOut(source: string, flags: string): Prefilter {
  const out: Prefilter = {};
  const literal = requiredLiteral(source, flags);
  const alternatives = requiredAlternatives(source, flags);
  // The stronger requirement: the longer literal, or a set whose every member is longer.
  if (alternatives && Math.min(...alternatives.map((l) => l.length)) > (literal?.length ?? 0)) out.anyOf = alternatives;
  else if (literal !== null) out.literal = literal;
  // The other required runs, even one character long (`\+` in a force push), checked
  // after those: a text that lacks one cannot match either.
  const others = requiredLiterals(source, flags).filter((l) => !(out.literal ?? '').includes(l));
  if (others.length > 0) out.allOf = others;
  return out;
}

function copyOf(p: Prefilter): Prefilter {
  return {
    ...(p.anyOf ? { anyOf: [...p.anyOf] } : {}),
    ...(p.literal !== undefined ? { literal: p.literal } : {}),
    ...(p.allOf ? { allOf: [...p.allOf] } : {}),
  };
}
