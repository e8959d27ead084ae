/**
 * The part of a Claude Code settings.json that lint reads: the `hooks` table
 * (contract reference section 2.1). Parsing is tolerant: anything malformed is skipped.
 */
import { diagnostic } from '../diagnostics';
import type { Diagnostic } from '../types';

export interface ClaudeHookHandler {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
  /** Permission-rule filter such as `Bash(git *)`. */
  if?: string;
  /** `block`: a handler that fails refuses the call (Claude Code 2.1.295+). */
  onFailure?: string;
}

export interface ClaudeMatcherGroup {
  matcher?: string;
  hooks: ClaudeHookHandler[];
}

export interface ClaudeSettings {
  hooks: Record<string, ClaudeMatcherGroup[]>;
  disableAllHooks?: boolean;
}

export interface ParseSettingsResult {
  settings: ClaudeSettings | null;
  diagnostics: Diagnostic[];
}

/**
 * Parses one settings file's text; invalid JSON gives a `settings-invalid` diagnostic.
 * @example parseClaudeSettings('s.json', '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"policy hook"}]}]}}')
 *   .settings.hooks.Stop[0].hooks[0].command // 'policy hook'
 */
export function parseClaudeSettings(file: string, text: string): ParseSettingsResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = `${file} is not valid JSON: ${(error as Error).message}`;
    return { settings: null, diagnostics: [diagnostic('settings-invalid', message, { file, line: 1, column: 1 })] };
  }
  if (!isObject(data)) {
    return { settings: null, diagnostics: [diagnostic('settings-invalid', `${file} is not a JSON object`, { file, line: 1, column: 1 })] };
  }
  const hooks: Record<string, ClaudeMatcherGroup[]> = {};
  if (isObject(data.hooks)) {
    for (const [event, groups] of Object.entries(data.hooks)) {
      if (Array.isArray(groups)) hooks[event] = groups.filter(isObject).map(toGroup);
    }
  }
  const settings: ClaudeSettings = { hooks };
  if (data.disableAllHooks === true) settings.disableAllHooks = true;
  return { settings, diagnostics: [] };
}

/**
 * Adds the hooks of several settings files together, as Claude Code does.
 * @example mergeClaudeSettings([a, b]).hooks.Stop // a's Stop groups, then b's
 */
export function mergeClaudeSettings(list: readonly ClaudeSettings[]): ClaudeSettings {
  const hooks: Record<string, ClaudeMatcherGroup[]> = {};
  let disableAllHooks = false;
  for (const s of list) {
    for (const [event, groups] of Object.entries(s.hooks)) (hooks[event] ??= []).push(...groups);
    disableAllHooks ||= s.disableAllHooks === true;
  }
  return disableAllHooks ? { hooks, disableAllHooks } : { hooks };
}

function toGroup(raw: Record<string, unknown>): ClaudeMatcherGroup {
  const group: ClaudeMatcherGroup = { hooks: [] };
  if (typeof raw.matcher === 'string') group.matcher = raw.matcher;
  if (Array.isArray(raw.hooks)) group.hooks = raw.hooks.filter(isObject).map(toHandler);
  return group;
}

function toHandler(raw: Record<string, unknown>): ClaudeHookHandler {
  const h: ClaudeHookHandler = {};
  for (const key of ['type', 'command', 'url', 'if', 'onFailure'] as const) if (typeof raw[key] === 'string') h[key] = raw[key] as string;
  if (Array.isArray(raw.args)) h.args = raw.args.filter((a): a is string => typeof a === 'string');
  return h;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
