/**
 * The command table: every command whose effect on files is known, by name. A name is
 * looked up by its last path segment, lower-cased (case-insensitive file systems run `RM`
 * as rm), without `.exe`.
 */
import { DOWNLOADS } from './downloads';
import type { CommandContext, CommandEffect, CommandSpec } from './effects';
import { INTERPRETER_STEMS, RUNNERS, interpreterFor } from './runners';
import type { Arg } from './words';
import { WRITERS } from './writers';

const TABLE = new Map<string, CommandSpec>();
for (const spec of [...WRITERS, ...DOWNLOADS, ...RUNNERS]) for (const name of spec.names) TABLE.set(name, spec);

/**
 * Every name (or name stem) the table knows: a command containing none of them, and no
 * redirection or run-time expansion, cannot write.
 * @example KNOWN_COMMAND_NAMES.includes('tee') // true
 */
export const KNOWN_COMMAND_NAMES: readonly string[] = [...TABLE.keys(), ...INTERPRETER_STEMS];

/**
 * The name a command word is looked up by.
 * @example commandName('/usr/bin/RM.exe') // 'rm'
 */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).toLowerCase().replace(/\.exe$/, '');
}

/**
 * What a simple command (its words, the name first) does to files.
 * @example commandEffect(['tee', '-a', 'log.txt'], { stdin: { kind: 'none' } }) // { writes: [{ path: 'log.txt' }] }
 */
export function commandEffect(argv: readonly Arg[], ctx: CommandContext): CommandEffect {
  const head = argv[0];
  if (head === null) return { unsure: 'the command name is not static' };
  if (head === undefined) return {};
  const name = commandName(head);
  const spec = TABLE.get(name) ?? interpreterFor(name);
  return spec ? spec.effect(argv.slice(1), ctx) : {};
}
