/**
 * The command table: every command whose effect on files is known, by name. It is an
 * allow list: a command that is not in it (a build tool, a package manager, an editor, a
 * script run by path) is not checkable. A name is looked up as written; a name that only
 * matches once lower-cased and without `.exe` (`RM`, `rm.exe`, a program on a
 * case-insensitive file system) keeps the writes of the command it resembles, and is not
 * checkable either: on a case-sensitive one it is another program.
 */
import { DOWNLOADS } from './downloads';
import { HOOKPOLICY_CLI } from './hookpolicy-cli';
import type { CommandContext, CommandEffect, CommandSpec } from './effects';
import { READERS } from './readers';
import { INTERPRETER_STEMS, RUNNERS, interpreterFor } from './runners';
import type { Arg } from './words';
import { WRITERS } from './writers';

const TABLE = new Map<string, CommandSpec>();
for (const spec of [...WRITERS, ...DOWNLOADS, ...RUNNERS, ...READERS, ...HOOKPOLICY_CLI]) for (const name of spec.names) TABLE.set(name, spec);

/** Folders whose programs are the system's: a command named by a path elsewhere is a program of its own. */
const SYSTEM_DIRS = ['/bin/', '/usr/bin/', '/sbin/', '/usr/sbin/'];

/**
 * Every name (or name stem) the table knows, for the pre-check.
 * @example KNOWN_COMMAND_NAMES.includes('tee') // true
 */
export const KNOWN_COMMAND_NAMES: readonly string[] = [...TABLE.keys(), ...INTERPRETER_STEMS];

/**
 * The name a command word is looked up by: its last path segment, lower-cased, without
 * `.exe` (used where catching more is the safe side: which commands change folder).
 * @example commandName('/usr/bin/RM.exe') // 'rm'
 */
export function commandName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).toLowerCase().replace(/\.exe$/, '');
}

/**
 * True when the table knows the command word exactly (a system path such as /bin/ls included).
 * @example isKnownCommand('git') // true
 * @example isKnownCommand('npm') // false
 */
export function isKnownCommand(word: string): boolean {
  const slash = word.lastIndexOf('/');
  if (slash >= 0 && !SYSTEM_DIRS.includes(word.slice(0, slash + 1))) return false;
  const name = word.slice(slash + 1);
  return TABLE.has(name) || interpreterFor(name) !== null;
}

/**
 * What a simple command (its words, the name first) does to files.
 * @example commandEffect(['tee', '-a', 'log.txt'], { stdin: { kind: 'none' } }) // { writes: [{ path: 'log.txt' }] }
 * @example commandEffect(['npm', 'test'], { stdin: { kind: 'none' } }) // { unsure: 'not a command whose writes are known' }
 */
export function commandEffect(argv: readonly Arg[], ctx: CommandContext): CommandEffect {
  const effect = tableEffect(argv, ctx);
  // A command the team declared known: what it does beyond the writes seen is trusted.
  if (effect.unsure && ctx.known?.some((words) => words.every((w, i) => argv[i] === w))) {
    const { unsure: _unsure, ...trusted } = effect;
    return trusted;
  }
  return effect;
}

function tableEffect(argv: readonly Arg[], ctx: CommandContext): CommandEffect {
  const head = argv[0];
  if (head === null) return { unsure: 'the command name is not static' };
  if (head === undefined) return {};
  const slash = head.lastIndexOf('/');
  if (slash >= 0 && !SYSTEM_DIRS.includes(head.slice(0, slash + 1))) {
    return { unsure: `it runs the program ${head}, whose writes are not known` };
  }
  const name = head.slice(slash + 1);
  const args = argv.slice(1);
  const exact = TABLE.get(name) ?? interpreterFor(name);
  if (exact) return withNullArgs(exact, name, args, ctx);
  const folded = commandName(head);
  const similar = TABLE.get(folded) ?? interpreterFor(folded);
  if (!similar) return { unsure: 'not a command whose writes are known' };
  // `RM x` still counts as writing x; what it really runs is not known.
  const { cd: _cd, ...effect } = withNullArgs(similar, folded, args, ctx);
  const why = `not exactly the name of a known command (${folded})`;
  return { ...effect, unsure: effect.unsure ? `${why}; ${effect.unsure}` : why };
}

function withNullArgs(spec: CommandSpec, name: string, args: readonly Arg[], ctx: CommandContext): CommandEffect {
  const effect = spec.effect(args, ctx);
  if (spec.nullArgs === 'safe' || !args.includes(null) || effect.unsure) return effect;
  return { ...effect, unsure: 'an argument is not static, and could be an option that writes or runs a program' };
}
