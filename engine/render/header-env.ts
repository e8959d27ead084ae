/**
 * Environment variables in HTTP header values, as Claude Code's own http hooks take them:
 * `$NAME` or `${NAME}` in a value is replaced by the variable's value, but only for names
 * the policy lists (`log.webhook.allowed_env_vars`); any other reference stays as written.
 * Pure: the host gives the environment when the record is sent.
 */

/** One `$NAME` / `${NAME}` in a value: the name, where its `$` is, and how long it is. */
export interface HeaderEnvReference {
  name: string;
  offset: number;
  length: number;
}

const REFERENCE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * Every variable reference in a header value, in order.
 * @example headerEnvReferences('Bearer ${HP_TOKEN}') // [{ name: 'HP_TOKEN', offset: 7, length: 11 }]
 */
export function headerEnvReferences(value: string): HeaderEnvReference[] {
  return [...value.matchAll(REFERENCE)].map((m) => ({ name: m[1] ?? m[2], offset: m.index ?? 0, length: m[0].length }));
}

/** A header value with its allowed references filled in, or the allowed names that had no value. */
export type ExpandedHeaders = { headers: Record<string, string>; unset: [] } | { headers: null; unset: string[] };

/**
 * Fills the allowed references of every header value from `lookup`. A variable that is
 * unset, empty or holds a line break leaves no half-made header: the result names the missing variables and
 * has no headers, so the caller sends nothing rather than a request without its credentials.
 * @example expandHeaderEnv({ Authorization: 'Bearer ${T}' }, ['T'], (n) => ({ T: 'abc' })[n]) // { headers: { Authorization: 'Bearer abc' }, unset: [] }
 */
export function expandHeaderEnv(headers: Readonly<Record<string, string>>, allowed: readonly string[] | undefined, lookup: (name: string) => string | undefined): ExpandedHeaders {
  if (!allowed || allowed.length === 0) return { headers: { ...headers }, unset: [] };
  const unset = new Set<string>();
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    out[key] = value.replace(REFERENCE, (whole, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare) as string;
      if (!allowed.includes(name)) return whole;
      const found = lookup(name);
      // A line break or NUL would end the header (or make Node refuse it): as good as unset.
      if (found === undefined || found === '' || /[\r\n\0]/.test(found)) unset.add(name);
      return found ?? '';
    });
  }
  return unset.size > 0 ? { headers: null, unset: [...unset].sort() } : { headers: out, unset: [] };
}

/**
 * The allowed variables the headers name that `lookup` has no value for (the runner's
 * check before it queues a record).
 * @example unsetHeaderEnv({ Authorization: 'Bearer ${T}' }, ['T'], () => undefined) // ['T']
 */
export function unsetHeaderEnv(headers: Readonly<Record<string, string>>, allowed: readonly string[] | undefined, lookup: (name: string) => string | undefined): string[] {
  return expandHeaderEnv(headers, allowed, lookup).unset;
}
