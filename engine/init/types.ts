/**
 * The shapes `policy init` writes into Claude Code's settings: a hooks object maps an event
 * name to matcher groups, each group to command handlers (reference section 2.1).
 */

/** One command handler. `args` present = exec form (no shell); absent = shell form. */
export interface CommandHook {
  type: 'command';
  command: string;
  args?: string[];
  if?: string;
  timeout?: number;
  /** Claude Code 2.1.295+: refuse the call when the command cannot run, fails or times out. */
  onFailure?: 'block';
}

/** The handler keys init writes; any other key of a runner handler (statusMessage, ...) is the user's and kept. */
export const INIT_HANDLER_KEYS: readonly string[] = ['type', 'command', 'args', 'url', 'if', 'timeout', 'onFailure'];

export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
}

/** The value of settings.json's `hooks` key, as init computes it. */
export type HooksConfig = Record<string, MatcherGroup[]>;

/** A settings object as read from disk: any JSON object. */
export type SettingsObject = Record<string, unknown>;

/** What init plans for a policy: the hooks to register, and notes for the user. */
export interface HookPlan {
  hooks: HooksConfig;
  notes: string[];
}
