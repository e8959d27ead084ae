/**
 * `policy init`'s part for a policy that records: the /mem-search slash command
 * (engine/init/slash-command.ts) in the project's .claude/commands/, and `policy
 * uninstall`'s removal of it while it is as init wrote it.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CompiledPolicy } from '../../engine/types';
import { isInitMemSearch, memSearchCommand, MEM_SEARCH_FILE, policyInvocation, policyRecords } from '../../engine/init/slash-command';

/**
 * Writes .claude/commands/mem-search.md when the policy records and the file is missing;
 * leaves a file that differs (the team's own) with a note.
 * @example writeMemSearchCommand(policy, '/p', console.log) // 'Wrote .claude/commands/mem-search.md (...)'
 */
export function writeMemSearchCommand(policy: CompiledPolicy, projectRoot: string, out: (line: string) => void): void {
  if (!policyRecords(policy)) return;
  const file = path.join(projectRoot, MEM_SEARCH_FILE);
  const installed = fs.existsSync(path.join(projectRoot, 'node_modules', 'hookpolicy', 'bin', 'policy.cjs'));
  const text = memSearchCommand(policyInvocation(installed));
  let current: string | null = null;
  try {
    current = fs.readFileSync(file, 'utf8');
  } catch {
    // Not there yet.
  }
  if (current === text) return;
  if (current !== null) {
    out(`note: ${MEM_SEARCH_FILE} differs from what init writes; left as it is`);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  out(`Wrote ${MEM_SEARCH_FILE} (the /mem-search ID slash command: policy memory show ID)`);
}

/**
 * Removes .claude/commands/mem-search.md when it is as init wrote it.
 * @example removeMemSearchCommand('/p', console.log) // 'Removed .claude/commands/mem-search.md'
 */
export function removeMemSearchCommand(projectRoot: string, out: (line: string) => void): void {
  const file = path.join(projectRoot, MEM_SEARCH_FILE);
  try {
    if (!isInitMemSearch(fs.readFileSync(file, 'utf8'))) return;
  } catch {
    return;
  }
  fs.rmSync(file);
  out(`Removed ${MEM_SEARCH_FILE}`);
}
