/**
 * JSONata's parser for the compiler, loaded at the first expression a compile has to parse
 * (~3 ms of a cold process): the shipped packs' expressions come parsed with their
 * snapshot (load/parse-snapshot.ts), so a policy that adds none of its own never loads it.
 */
import type jsonataModule from 'jsonata';

let jsonata: typeof jsonataModule | undefined;

/**
 * JSONata's parser (loaded at the first call): it returns the parsed expression (`ast()`...)
 * and throws JSONata's syntax error. Take it before a `try` that reads a throw as a syntax
 * error: JSONata failing to load is not one.
 * @example jsonataParser()('$agent = "ba"').ast().type // 'binary'
 */
export function jsonataParser(): typeof jsonataModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  jsonata ??= require('jsonata') as typeof jsonataModule;
  return jsonata;
}
