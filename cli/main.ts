/**
 * Entry of dist/cli.cjs: the `policy` program. Commands live in cli/commands/, one file
 * each exporting `register(program)`, listed in COMMANDS below.
 *
 * A command's action reports a non-zero exit code by throwing commander's own
 * `new CommanderError(code, 'policy.exit', message)`; main() turns it into the return
 * value, and only bin sets process.exitCode. Exit codes are ESLint's: 0 ok, 1 problems
 * found, 2 usage or internal error.
 */
import { Command, CommanderError } from 'commander';
import { PACKAGE_VERSION } from '../engine/host/engine-version';
import * as db from './commands/db';
import * as explain from './commands/explain';
import * as hook from './commands/hook';
import * as init from './commands/init';
import * as lint from './commands/lint';
import * as log from './commands/log';
import * as memory from './commands/memory';
import * as report from './commands/report';
import * as serve from './commands/serve';
import * as stats from './commands/stats';
import * as test from './commands/test';
import * as uninstall from './commands/uninstall';
import * as version from './commands/version';

export interface CommandModule {
  register(program: Command): void;
}

/** Every command of the CLI, in --help order. */
export const COMMANDS: CommandModule[] = [hook, explain, init, uninstall, lint, test, serve, memory, db, stats, log, report, version];

/**
 * The commander program with every command registered; errors throw CommanderError
 * instead of exiting.
 */
export function createProgram(): Command {
  const program = new Command('policy')
    .description('Declarative policies for Claude Code hooks: YAML rules in, Claude Code answers out.')
    .version(PACKAGE_VERSION, '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  for (const command of COMMANDS) command.register(program);
  return program;
}

/**
 * Runs the CLI with process-style argv (node, script, ...args); resolves with the exit code.
 * @example await main(['node', 'policy', '--version']) // 0, after printing 0.1.0
 * @example await main(['node', 'policy', 'bogus']) // 2, after "error: unknown command 'bogus'"
 */
export async function main(argv: string[]): Promise<number> {
  try {
    await createProgram().parseAsync(argv);
    return 0;
  } catch (e) {
    // Commander's own errors (unknown command or option, missing argument, no command) are usage errors.
    if (e instanceof CommanderError) return e.code === 'policy.exit' || e.exitCode === 0 ? e.exitCode : 2;
    process.stderr.write(`policy: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}
