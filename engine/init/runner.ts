/**
 * The runner's handler as written into settings, and how init recognises the handlers it
 * wrote: a command hook whose argv has `.../policy.cjs` followed by `hook`. No marker key
 * is added, because Claude Code may reject unknown keys in hook entries.
 */
import type { CommandHook } from './types';

export type CommandForm = 'exec' | 'shell';

export interface RunnerCommand {
  /** The program and its leading arguments up to the bin file, e.g. [node, .../bin/policy.cjs]. */
  argv: string[];
  /** Arguments after `hook`: --on-error, --config... */
  hookArgs: string[];
  form: CommandForm;
  timeout?: number;
  /** The policy fails closed: the entry gets `onFailure: "block"`, so a runner that cannot start refuses the call. */
  failClosed?: boolean;
}

/**
 * The handler for a runner command. Exec form puts argv[0] in `command` and the rest in
 * `args`; shell form quotes every word into one string for `sh -c`.
 * @example runnerHook({ argv: ['/n/node', '/p/bin/policy.cjs'], hookArgs: [], form: 'exec' })
 *   // { type: 'command', command: '/n/node', args: ['/p/bin/policy.cjs', 'hook'] }
 */
export function runnerHook(runner: RunnerCommand): CommandHook {
  const hook = commandHook([...runner.argv, 'hook', ...runner.hookArgs], runner.form);
  if (runner.timeout !== undefined) hook.timeout = runner.timeout;
  if (runner.failClosed) hook.onFailure = 'block';
  return hook;
}

/**
 * A command handler running `words`: exec form (`command` + `args`) or one `sh -c` string.
 * @example commandHook(['node', 'x.cjs', 'hook'], 'exec') // { type: 'command', command: 'node', args: ['x.cjs', 'hook'] }
 */
export function commandHook(words: string[], form: CommandForm): CommandHook {
  return form === 'exec' ? { type: 'command', command: words[0], args: words.slice(1) } : { type: 'command', command: shellCommand(words) };
}

/**
 * One `sh -c` string for the words. `env -u NODE_EXTRA_CA_CERTS` becomes an empty
 * assignment in front of the command: Node reads an empty NODE_EXTRA_CA_CERTS as unset,
 * and the shell then starts node without starting env first (~1 ms per event).
 * @example shellCommand(['/usr/bin/env', '-u', 'NODE_EXTRA_CA_CERTS', '/n/node', 'x.cjs']) // 'NODE_EXTRA_CA_CERTS= /n/node x.cjs'
 */
function shellCommand(words: string[]): string {
  const unsetsCerts = /(^|[\\/])env$/.test(words[0]) && words[1] === '-u' && words[2] === 'NODE_EXTRA_CA_CERTS';
  return unsetsCerts ? ['NODE_EXTRA_CA_CERTS=', ...words.slice(3).map(shellQuote)].join(' ') : words.map(shellQuote).join(' ');
}

/**
 * True for a handler init wrote (either form): the runner, an http entry to the policy
 * server, or the SessionStart hook that starts that server.
 * @example isRunnerHook({ type: 'command', command: 'node', args: ['x/bin/policy.cjs', 'hook'] }) // true
 */
export function isRunnerHook(handler: unknown): boolean {
  // `policy init --mode http` entries: an http handler to the daemon's /policy-hook path (engine/host/http-hooks.ts).
  const h = handler as { type?: unknown; url?: unknown } | null;
  if (h && typeof h === 'object' && h.type === 'http') return typeof h.url === 'string' && /^https?:\/\/[^/]+\/policy-hook$/.test(h.url);
  const words = handlerWords(handler);
  if (!words) return false;
  if (isEnsureHook(handler)) return true;
  for (let i = 0; i + 1 < words.length; i++) {
    if (/(^|[\\/])policy\.cjs$/.test(words[i]) && words[i + 1] === 'hook') return true;
  }
  return false;
}

/**
 * True for the SessionStart hook `policy init --mode http` writes (either form).
 * @example isEnsureHook({ type: 'command', command: 'node', args: ['/p/bin/policy.cjs', 'serve', '--ensure', '--port', '8707'] }) // true
 */
export function isEnsureHook(handler: unknown): boolean {
  const words = handlerWords(handler);
  if (!words) return false;
  const at = words.findIndex((w, i) => /(^|[\\/])policy\.cjs$/.test(w) && words[i + 1] === 'serve');
  return at >= 0 && words.includes('--ensure', at);
}

/**
 * The port an ensure hook names, or null.
 * @example ensurePort({ type: 'command', command: 'node', args: ['x/policy.cjs', 'serve', '--ensure', '--port', '8707'] }) // 8707
 */
export function ensurePort(handler: unknown): number | null {
  const words = handlerWords(handler) ?? [];
  const i = words.indexOf('--port');
  const port = i >= 0 ? Number(words[i + 1]) : NaN;
  return Number.isInteger(port) ? port : null;
}

/**
 * The argv of a command handler: exec form as written, shell form split on unquoted
 * spaces (enough for the strings init writes); null for anything else.
 */
export function handlerWords(handler: unknown): string[] | null {
  if (!handler || typeof handler !== 'object') return null;
  const h = handler as Record<string, unknown>;
  if (h.type !== 'command' || typeof h.command !== 'string') return null;
  if (Array.isArray(h.args)) return [h.command, ...h.args.filter((a): a is string => typeof a === 'string')];
  return splitShellWords(h.command);
}

/** Quotes a word for POSIX sh when it needs it; `${VAR}` placeholders stay expandable. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  if (/\$\{[A-Z_]+\}/.test(word) && !/["\\`]/.test(word)) return `"${word}"`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function splitShellWords(command: string): string[] {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(command)) !== null) {
    if (m[1] !== undefined) words.push(m[1].replace(/'\\''/g, "'"));
    else if (m[2] !== undefined) words.push(m[2].replace(/\\(.)/g, '$1'));
    else words.push(m[3]);
  }
  return words;
}
