/**
 * `policy hook` in --help. bin/policy.cjs sends `policy hook` straight to dist/hook.cjs
 * without loading commander; this registration is for help and programmatic use.
 */
import { CommanderError, type Command } from 'commander';
import { main as runHookMain } from '../hook-main';

/** Registers `policy hook [--config FILE]... [--on-error open|closed] [--host NAME]`. */
export function register(program: Command): void {
  program
    .command('hook')
    .description('answer one hook event (JSON on stdin) from the policy: Claude Code\'s, or with --host another coding agent\'s')
    .option('-c, --config <file>', 'policy file, relative to the project root (repeatable; default: .claude/policies.yaml, policies.yaml, else $POLICY_CONFIG)', collect)
    .option('--on-error <mode>', 'when the event cannot be checked: open (say nothing) or closed (deny or block); default: the policy\'s on_error')
    .option('--host <host>', 'the coding agent that sends the event: claude (default), codex or gemini; the event is read and answered in its shape')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (options: { config?: string[]; onError?: string; host?: string }, command: Command) => {
      const argv = [
        ...(options.config ?? []).flatMap((file) => ['--config', file]),
        ...(options.onError !== undefined ? ['--on-error', options.onError] : []),
        ...(options.host !== undefined ? ['--host', options.host] : []),
        ...command.args,
      ];
      const result = await runHookMain(argv);
      if (result.exitCode !== 0) throw new CommanderError(result.exitCode, 'policy.exit', '');
    });
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
