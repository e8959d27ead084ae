/**
 * Arguments of `policy hook`, parsed by hand: the hot path does not load commander.
 */
import { ADAPTED_HOSTS, isAdaptedHost, type AdaptedHostName } from '../engine/hosts/types';

export interface HookArgs {
  /** --config FILE, in order (repeatable). */
  configs: string[];
  /** --on-error open|closed, or null when not given. */
  onError: 'open' | 'closed' | null;
  /** --host NAME: a coding agent other than Claude Code (engine/hosts/); null for Claude Code. */
  host: AdaptedHostName | null;
  /** Usage problems: unknown options, missing or bad values. */
  problems: string[];
}

/** What `policy hook` takes, for usage errors. */
export const HOOK_USAGE = 'policy hook [--config FILE]... [--on-error open|closed] [--host claude|codex|gemini]';

/**
 * @example parseHookArgs(['--config', 'a.yaml', '--on-error=closed'])
 *   // { configs: ['a.yaml'], onError: 'closed', problems: [] }
 */
export function parseHookArgs(argv: readonly string[]): HookArgs {
  const args: HookArgs = { configs: [], onError: null, host: null, problems: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i]);
    const value = (): string | null => {
      if (inline !== null) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return null;
      i++;
      return next;
    };
    if (flag === '--config' || flag === '-c') {
      const v = value();
      if (v === null || v === '') args.problems.push(`${flag} needs a file`);
      else args.configs.push(v);
    } else if (flag === '--on-error') {
      const v = value();
      if (v === 'open' || v === 'closed') args.onError = v;
      else args.problems.push(`--on-error must be open or closed, not ${v === null ? 'nothing' : JSON.stringify(v)}`);
    } else if (flag === '--host') {
      const v = value();
      if (v === 'claude') args.host = null;
      else if (v !== null && isAdaptedHost(v)) args.host = v;
      else args.problems.push(`--host must be ${['claude', ...ADAPTED_HOSTS].join(', ')}, not ${v === null ? 'nothing' : JSON.stringify(v)}`);
    } else if (argv[i].startsWith('-')) {
      args.problems.push(`unknown option '${flag}'`);
    } else {
      args.problems.push(`unexpected argument '${argv[i]}'`);
    }
  }
  return args;
}

function splitFlag(arg: string): [string, string | null] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, null];
}
