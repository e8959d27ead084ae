/**
 * The runner's entries in Gemini CLI's `settings.json` (`hooks.<Event>[].hooks[]`, the same
 * shape as Claude Code's, so engine/init/merge.ts puts them in and takes them out), and
 * what would make Gemini skip them: a folder it does not trust (it then reads no project
 * settings at all), hooks switched off (`hooksConfig.enabled: false`), or this hook named in
 * `hooksConfig.disabled`.
 */
import type { CommandHook, HooksConfig } from '../../init/types';
import type { HostPlan } from '../plan';

/** The name the entries carry in Gemini (its /hooks panel, `hooksConfig.disabled`). */
export const GEMINI_HOOK_NAME = 'hookpolicy';

/**
 * The hooks object for a plan: one group per event and matcher.
 * @example geminiHooks({ groups: [{ event: 'AfterAgent', ruleEvent: 'Stop' }], notes: [] }, 'node x', 10000)
 *   // { AfterAgent: [{ hooks: [{ type: 'command', name: 'hookpolicy', command: 'node x', timeout: 10000 }] }] }
 */
export function geminiHooks(plan: HostPlan, command: string, timeoutMs: number): HooksConfig {
  const handler = { type: 'command', name: GEMINI_HOOK_NAME, command, timeout: timeoutMs } as CommandHook;
  const hooks: HooksConfig = {};
  for (const g of plan.groups) (hooks[g.event] ??= []).push(g.matcher === undefined ? { hooks: [handler] } : { matcher: g.matcher, hooks: [handler] });
  return hooks;
}

/**
 * Whether Gemini trusts a folder: `trustedFolders.json`'s longest matching rule
 * (TRUST_PARENT trusts the folder's parent and what is below it), as Gemini reads it; undefined
 * when no rule matches (Gemini then asks, and reads no project settings meanwhile).
 * @example geminiFolderTrust({ '/home/me/shop': 'TRUST_FOLDER' }, '/home/me/shop/sub') // true
 */
export function geminiFolderTrust(rules: Record<string, unknown>, folder: string): boolean | undefined {
  let best = -1;
  let level: unknown;
  for (const [rule, value] of Object.entries(rules)) {
    const base = value === 'TRUST_PARENT' ? rule.replace(/\/[^/]*\/?$/, '') || '/' : rule.replace(/\/+$/, '') || '/';
    const inside = folder === base || folder.startsWith(base === '/' ? '/' : `${base}/`);
    if (inside && rule.length > best) {
      best = rule.length;
      level = value;
    }
  }
  if (level === 'DO_NOT_TRUST') return false;
  return level === 'TRUST_FOLDER' || level === 'TRUST_PARENT' ? true : undefined;
}

/**
 * Why Gemini would skip the runner's hooks with these settings (user's, then project's),
 * or [] when it would run them.
 * @example geminiSwitches([{ hooksConfig: { enabled: false } }]) // ['hooksConfig.enabled is false: Gemini runs no hook']
 */
export function geminiSwitches(settings: ReadonlyArray<Record<string, unknown> | null>): string[] {
  const problems: string[] = [];
  for (const s of settings) {
    const config = s && typeof s.hooksConfig === 'object' && s.hooksConfig !== null ? (s.hooksConfig as Record<string, unknown>) : {};
    if (config.enabled === false) problems.push('hooksConfig.enabled is false: Gemini runs no hook');
    if (Array.isArray(config.disabled) && config.disabled.includes(GEMINI_HOOK_NAME)) problems.push(`hooksConfig.disabled names "${GEMINI_HOOK_NAME}": Gemini skips the runner`);
  }
  return problems;
}

/**
 * True when folder trust is on (Gemini's default), as the user's settings say.
 * @example geminiFolderTrustOn({ security: { folderTrust: { enabled: false } } }) // false
 */
export function geminiFolderTrustOn(userSettings: Record<string, unknown> | null): boolean {
  const security = userSettings?.security as { folderTrust?: { enabled?: unknown } } | undefined;
  return security?.folderTrust?.enabled !== false;
}
