/**
 * Putting the runner's entries into a settings object and taking them out again, touching
 * nothing else: other keys, other events, other handlers (even in the same group) stay as
 * they were. Init's entries replace the runner entries already there, in place, so a
 * second run with the same policy changes nothing; keys a person added to a runner
 * handler (statusMessage, ...) are carried over to its replacement.
 */
import { isRunnerHook } from './runner';
import { INIT_HANDLER_KEYS, type HooksConfig, type SettingsObject } from './types';

export interface MergeResult {
  settings: SettingsObject;
  changed: boolean;
}

/**
 * Why a settings object cannot be edited, or null when it can.
 * @example settingsProblem({ hooks: [] }) // '"hooks" is not an object'
 */
export function settingsProblem(settings: unknown): string | null {
  if (!isObject(settings)) return 'the file is not a JSON object';
  if (settings.hooks !== undefined && !isObject(settings.hooks)) return '"hooks" is not an object';
  for (const [event, groups] of Object.entries((settings.hooks ?? {}) as object)) {
    if (!Array.isArray(groups)) return `"hooks.${event}" is not a list`;
  }
  return null;
}

/**
 * Settings with the runner registered exactly as `hooks` says (earlier runner entries
 * replaced, runner entries of events no longer used removed).
 * @example installHooks({ model: 'x' }, { Stop: [{ hooks: [h] }] }) // { settings: { model: 'x', hooks: { Stop: [...] } }, changed: true }
 */
export function installHooks(settings: SettingsObject, hooks: HooksConfig): MergeResult {
  const result = structuredClone(settings);
  const table = (isObject(result.hooks) ? result.hooks : {}) as Record<string, unknown[]>;
  const kept = userKeys(table);
  const slots = stripRunner(table);
  for (const [event, groups] of Object.entries(hooks)) {
    const current = table[event] ?? [];
    const at = slots.get(event) ?? current.length;
    const extra = kept.get(event) ?? {};
    current.splice(at, 0, ...structuredClone(groups).map((g) => ({ ...g, hooks: g.hooks.map((h) => ({ ...h, ...extra })) })));
    table[event] = current;
  }
  dropEmpty(table, settings);
  if (Object.keys(table).length > 0 || result.hooks !== undefined) result.hooks = table;
  return { settings: result, changed: !sameJson(result, settings) };
}

/**
 * Settings without any runner entry; other handlers stay.
 * @example uninstallHooks(settings).changed // false when init never ran
 */
export function uninstallHooks(settings: SettingsObject): MergeResult {
  if (!isObject(settings.hooks)) return { settings: structuredClone(settings), changed: false };
  const result = structuredClone(settings);
  const table = result.hooks as Record<string, unknown[]>;
  const slots = stripRunner(table);
  dropEmpty(table, settings);
  if (slots.size > 0 && Object.keys(table).length === 0) delete result.hooks;
  return { settings: result, changed: !sameJson(result, settings) };
}

/** Per event, the keys of its first runner handler that init does not write (the user's own). */
function userKeys(table: Record<string, unknown[]>): Map<string, Record<string, unknown>> {
  const kept = new Map<string, Record<string, unknown>>();
  for (const [event, groups] of Object.entries(table)) {
    if (!Array.isArray(groups)) continue;
    const handler = groups.flatMap((g) => (isObject(g) && Array.isArray(g.hooks) ? g.hooks : [])).find(isRunnerHook);
    if (!isObject(handler)) continue;
    const own = Object.entries(handler).filter(([key]) => !INIT_HANDLER_KEYS.includes(key));
    if (own.length > 0) kept.set(event, Object.fromEntries(own));
  }
  return kept;
}

/** Removes runner handlers in place; returns, per event, where its first runner group was. */
function stripRunner(table: Record<string, unknown[]>): Map<string, number> {
  const slots = new Map<string, number>();
  for (const [event, groups] of Object.entries(table)) {
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks) || !group.hooks.some(isRunnerHook)) {
        kept.push(group);
        continue;
      }
      if (!slots.has(event)) slots.set(event, kept.length);
      const others = group.hooks.filter((h) => !isRunnerHook(h));
      if (others.length > 0) kept.push({ ...group, hooks: others });
    }
    table[event] = kept;
  }
  return slots;
}

/** Deletes event lists that stripping emptied (lists that were already empty stay). */
function dropEmpty(table: Record<string, unknown[]>, original: SettingsObject): void {
  const before = (isObject(original.hooks) ? original.hooks : {}) as Record<string, unknown>;
  for (const [event, groups] of Object.entries(table)) {
    const wasEmpty = Array.isArray(before[event]) && (before[event] as unknown[]).length === 0;
    if (Array.isArray(groups) && groups.length === 0 && !wasEmpty) delete table[event];
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * How many runner handlers a settings object has.
 * @example countRunnerHooks({ hooks: { Stop: [{ hooks: [runner] }] } }) // 1
 */
export function countRunnerHooks(settings: SettingsObject): number {
  if (!isObject(settings.hooks)) return 0;
  let n = 0;
  for (const groups of Object.values(settings.hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) if (isObject(g) && Array.isArray(g.hooks)) n += g.hooks.filter(isRunnerHook).length;
  }
  return n;
}
