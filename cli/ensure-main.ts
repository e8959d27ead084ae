/**
 * dist/ensure.cjs: `policy serve --ensure`, the hook an http install runs at every session
 * start and every prompt, without loading the whole CLI (commander, the compiler, the
 * commands): bin/policy.cjs takes this path when the arguments have the shape `policy
 * init` writes, and the CLI otherwise, which also reports any usage error.
 */
import { DEFAULT_IDLE_SECONDS, ensure } from './commands/serve-ensure';
import { idleSeconds, onErrorMode, portNumber } from './serve-values';

export interface EnsureArgs {
  port: number;
  configs: string[];
  onError: 'open' | 'closed' | null;
  idleSeconds: number;
}

/**
 * The arguments after `serve` when they are `--ensure --port N` with only `--config F`
 * (`-c F`), `--on-error open|closed` and `--idle S` beside, each valid as the CLI reads it
 * (serve-values.ts; port 0 is the CLI's to refuse); else null.
 * @example ensureArgs(['--ensure', '--port', '8707', '--on-error', 'closed']) // { port: 8707, configs: [], onError: 'closed', idleSeconds: 30 }
 */
export function ensureArgs(args: readonly string[]): EnsureArgs | null {
  let port: number | null = null;
  let ensureSeen = false;
  let onError: 'open' | 'closed' | null = null;
  let idle = DEFAULT_IDLE_SECONDS;
  const configs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === '--ensure' && !ensureSeen) {
      ensureSeen = true;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined || value.startsWith('-')) return null;
    i++;
    if (flag === '--port' && (portNumber(value) ?? 0) > 0) port = portNumber(value);
    else if (flag === '--config' || flag === '-c') configs.push(value);
    else if (flag === '--on-error' && onErrorMode(value) !== null) onError = onErrorMode(value);
    else if (flag === '--idle' && idleSeconds(value) !== null) idle = idleSeconds(value) as number;
    else return null;
  }
  return ensureSeen && port !== null ? { port, configs, onError, idleSeconds: idle } : null;
}

/**
 * Runs the hook for `args` (after `serve`) and gives its exit code, 2 after an internal
 * error as the CLI would; null when the arguments are not this path's (the CLI is to run them).
 * @example await main(['--ensure', '--port', '8707'], '/p/node_modules/hookpolicy/bin/policy.cjs') // 0 once the server runs
 */
export function main(args: readonly string[], binPath: string): Promise<number> | null {
  const parsed = ensureArgs(args);
  if (!parsed) return null;
  return ensure(parsed.port, parsed.configs, parsed.onError, binPath, parsed.idleSeconds).catch((e: unknown) => {
    process.stderr.write(`policy: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  });
}
