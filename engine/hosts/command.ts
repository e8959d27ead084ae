/**
 * The runner's command line in a host's configuration, portable as Claude Code's shared
 * entry is: it names no path of the machine that ran init, and finds hookpolicy in the
 * project's own node_modules on every teammate's machine.
 *
 * - Gemini CLI runs a hook through the shell in the project folder, writes
 *   `$GEMINI_PROJECT_DIR` into the command as a quoted path, and sets CLAUDE_PROJECT_DIR.
 * - Codex CLI runs it through `$SHELL -lc` in the session's folder, which may be below the
 *   project (Codex reads `.codex/` from there up), and sets no project variable: the command
 *   walks up to the folder whose node_modules holds hookpolicy (shell built-ins only, no
 *   process) and gives it to the runner as CLAUDE_PROJECT_DIR, the variable it reads.
 *
 * `NODE_EXTRA_CA_CERTS=` (empty: Node reads it as unset) spares Node parsing extra root
 * certificates at every event, as in Claude Code's entries (engine/init/runner.ts).
 */
import { shellQuote } from '../init/runner';
import type { OtherHostName } from './types';

/** Where hookpolicy is installed in a project, from its root. */
export const PROJECT_BIN = 'node_modules/hookpolicy/bin/policy.cjs';

export interface HostCommandOptions {
  host: OtherHostName;
  /** Arguments after `hook --host NAME`: --config (project-relative), --on-error. */
  hookArgs: string[];
  /** Keep NODE_EXTRA_CA_CERTS (an https webhook may need it). */
  keepCerts: boolean;
}

/**
 * The command string for a host's hook entry.
 * @example hostCommand({ host: 'gemini', hookArgs: [], keepCerts: false })
 *   // 'NODE_EXTRA_CA_CERTS= node $GEMINI_PROJECT_DIR/node_modules/hookpolicy/bin/policy.cjs hook --host gemini'
 */
export function hostCommand(o: HostCommandOptions): string {
  const args = ['hook', '--host', o.host, ...o.hookArgs].map(shellQuote).join(' ');
  const certs = o.keepCerts ? '' : 'NODE_EXTRA_CA_CERTS= ';
  if (o.host === 'gemini') return `${certs}node $GEMINI_PROJECT_DIR/${PROJECT_BIN} ${args}`;
  return `d=$PWD; until [ -f "$d/${PROJECT_BIN}" ] || [ -z "$d" ]; do d=\${d%/*}; done; `
    + `CLAUDE_PROJECT_DIR="\${d:-/}" ${certs}exec node "$d/${PROJECT_BIN}" ${args}`;
}
