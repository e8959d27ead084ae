/**
 * Compiles a rule's `prompts`: which kinds of UserPromptSubmit prompt it applies to.
 */
import { PROMPT_KINDS } from '../types';
import type { CompiledRule, PromptKind } from '../types';
import { asList } from './context';

/**
 * `user`, `task-notification` or a list of them -> the kinds, each once; null without `prompts`.
 * @example compilePrompts(['user', 'user']) // ['user']
 */
export function compilePrompts(prompts: unknown): CompiledRule['prompts'] {
  if (prompts === undefined) return null;
  const kinds: PromptKind[] = [];
  for (const value of asList(prompts)) {
    const kind = PROMPT_KINDS.find((k) => k === value);
    if (kind !== undefined && !kinds.includes(kind)) kinds.push(kind);
  }
  return kinds;
}
