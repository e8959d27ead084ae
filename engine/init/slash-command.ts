/**
 * The `/mem-search ID` slash command `policy init` writes for a policy that records (seed
 * 003's "details on demand"): a Claude Code custom command whose body runs `policy memory
 * show` through the `!` bash syntax, allowed for exactly that command, so the record's
 * full text reaches the conversation only when someone asks for it.
 */
import type { CompiledPolicy } from '../types';

/** Where the command lives, project-relative (Claude Code reads .claude/commands/NAME.md as /NAME). */
export const MEM_SEARCH_FILE = '.claude/commands/mem-search.md';

/**
 * True when a rule of the policy records (has a `record` action).
 * @example policyRecords(policy) // true
 */
export function policyRecords(policy: CompiledPolicy): boolean {
  return policy.rules.some((r) => (r.records?.length ?? 0) > 0);
}

/**
 * The command file, for a CLI invoked as `policy` (e.g. `npx --no-install policy`). The
 * argument is single-quoted: `#12` would otherwise start a shell comment, and a `;` in it
 * cannot start another command.
 * @example memSearchCommand('npx --no-install policy') // '---\ndescription: ...\nallowed-tools: Bash(npx --no-install policy memory show:*)\n---\n...'
 */
export function memSearchCommand(policy: string): string {
  return [
    '---',
    'description: Show one record of this project\'s memory in full (the id a memory notice or `policy memory list` shows)',
    'argument-hint: <id>',
    `allowed-tools: Bash(${policy} memory show:*)`,
    '---',
    'This record is from the project\'s memory store (hookpolicy), shown because it was asked for:',
    '',
    `!\`${policy} memory show '$ARGUMENTS'\``,
    '',
    'Use it as context for what follows; it asks nothing by itself.',
    '',
  ].join('\n');
}

/** How init invokes the CLI in the command: through npx when hookpolicy is in the project's node_modules, else from PATH. */
export function policyInvocation(installedInProject: boolean): string {
  return installedInProject ? 'npx --no-install policy' : 'policy';
}

/**
 * True when `text` is a command file init wrote, unchanged (uninstall removes only those).
 * @example isInitMemSearch(memSearchCommand('policy')) // true
 */
export function isInitMemSearch(text: string): boolean {
  return [true, false].some((installed) => text === memSearchCommand(policyInvocation(installed)));
}
