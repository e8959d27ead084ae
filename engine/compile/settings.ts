/**
 * Merges `settings` over all files (highest precedence first, then gaps filled) and collects
 * each file's bypass switch.
 */
import type { CompiledBypass, CompiledLog, CompiledMemorySettings, CompiledSettings, JsonValue, LoadedFile } from '../types';
import { isObject } from './context';
import { firstDefined, precedenceOrder } from './precedence';
import { inputLimitSettings } from '../evaluate/oversized';
import { DEFAULT_PRIVACY } from '../memory/privacy';
import { compileMemoryWorkers } from './memory-workers';

export const DEFAULT_RECORD = ['deny', 'ask', 'block', 'allow', 'warn', 'context', 'bypass', 'error'];
const DEFAULT_BYPASS_VALUES = ['off', '0', 'false'];
const DEFAULT_MEMORY_DIR = '.claude/hookpolicy/memory';

export interface SettingsResult {
  settings: CompiledSettings;
  /** Index into settings.bypasses of each file's own switch. */
  bypassOf: Map<string, number>;
}

/**
 * The compiled settings of a policy made of `files` (evaluation order).
 * @example compileSettings(files).settings.onError // 'open'
 */
export function compileSettings(files: readonly LoadedFile[]): SettingsResult {
  const ordered = precedenceOrder(files);
  const onError = firstDefined(ordered, (d) => d.settings?.on_error)?.value;
  const deadline = firstDefined(ordered, (d) => d.settings?.deadline_ms)?.value;
  const oversized = firstDefined(ordered, (d) => d.settings?.oversized)?.value;
  const maxInputBytes = firstDefined(ordered, (d) => d.settings?.max_input_bytes)?.value;
  const bypasses: CompiledBypass[] = [];
  const bypassOf = new Map<string, number>();
  for (const file of files) {
    const bypass = isObject(file.doc) && isObject(file.doc.settings) ? file.doc.settings.bypass : undefined;
    if (!isObject(bypass) || typeof bypass.env !== 'string') continue;
    bypassOf.set(file.file, bypasses.length);
    bypasses.push({
      env: bypass.env,
      values: Array.isArray(bypass.values) ? bypass.values.map(String) : [...DEFAULT_BYPASS_VALUES],
      source: file.map.locate('/settings/bypass'),
    });
  }
  return {
    settings: {
      onError: onError === 'closed' ? 'closed' : 'open',
      bypasses,
      log: compileLog(ordered),
      deadlineMs: typeof deadline === 'number' ? deadline : 5000,
      selfProtection: compileSelfProtection(files),
      ...policyConfig(files),
      ...inputLimitSettings({ oversized, max_input_bytes: maxInputBytes }),
      ...knownCommands(ordered),
      ...sandboxKeep(ordered),
      memory: compileMemory(ordered),
    },
    bypassOf,
  };
}

/** The top file's openings of self-protection: an included file (a pack) cannot open them. */
function compileSelfProtection(files: readonly LoadedFile[]): { except: string[]; mainSession: string[] } {
  const top = files.find((f) => f.root) ?? files[files.length - 1];
  const raw = top && isObject(top.doc) && isObject(top.doc.settings) ? top.doc.settings.self_protection : undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : []);
  return isObject(raw) ? { except: list(raw.except), mainSession: list(raw.main_session) } : { except: [], mainSession: [] };
}

/** The top file's `policy_config`: whether $POLICY_CONFIG may replace this policy. An included file (a pack) cannot say so. */
function policyConfig(files: readonly LoadedFile[]): { policyConfig?: 'allow' } {
  const top = files.find((f) => f.root) ?? files[files.length - 1];
  return top && isObject(top.doc) && isObject(top.doc.settings) && top.doc.settings.policy_config === 'allow' ? { policyConfig: 'allow' } : {};
}

/**
 * `memory`, each key from the first file (top file first) that gives it, else its default.
 * @example compileMemory([]) // { dir: '.claude/hookpolicy/memory', retentionDays: 90, maxRecords: 20000, privacy: DEFAULT_PRIVACY }
 */
export function compileMemory(ordered: readonly LoadedFile[]): CompiledMemorySettings {
  const store = firstDefined(ordered, (d) => d.settings?.memory?.store)?.value;
  const retention = firstDefined(ordered, (d) => d.settings?.memory?.retention_days)?.value;
  const max = firstDefined(ordered, (d) => d.settings?.memory?.max_records)?.value;
  const privacy = firstDefined(ordered, (d) => d.settings?.memory?.privacy)?.value;
  return {
    dir: typeof store === 'string' ? store : store === false ? null : DEFAULT_MEMORY_DIR,
    retentionDays: typeof retention === 'number' ? retention : 90,
    maxRecords: typeof max === 'number' ? max : 20000,
    privacy: Array.isArray(privacy) ? privacy.filter((g): g is string => typeof g === 'string') : [...DEFAULT_PRIVACY],
    ...compileMemoryWorkers(ordered),
  };
}

/** `known_commands`, each split into its words; absent when no file gives a list. */
function knownCommands(ordered: readonly LoadedFile[]): { knownCommands?: string[][] } {
  const list = firstDefined(ordered, (d) => d.settings?.known_commands)?.value;
  if (!Array.isArray(list)) return {};
  const commands = list.filter((c): c is string => typeof c === 'string').map((c) => c.trim().split(/\s+/)).filter((w) => w[0] !== '');
  return commands.length > 0 ? { knownCommands: commands } : {};
}

/** `sandbox.keep` of the first file that gives it; absent when none does. */
function sandboxKeep(ordered: readonly LoadedFile[]): { sandboxKeep?: string[] } {
  const list = firstDefined(ordered, (d) => d.settings?.sandbox?.keep)?.value;
  return Array.isArray(list) ? { sandboxKeep: list.filter((g): g is string => typeof g === 'string') } : {};
}

function compileLog(ordered: readonly LoadedFile[]): CompiledLog {
  const file = firstDefined(ordered, (d) => d.settings?.log?.file)?.value;
  const webhook = firstDefined(ordered, (d) => d.settings?.log?.webhook)?.value;
  const record = firstDefined(ordered, (d) => d.settings?.log?.record)?.value;
  return {
    file: typeof file === 'string' ? file : null,
    webhook: isObject(webhook) && typeof webhook.url === 'string'
      ? {
          url: webhook.url,
          timeoutMs: typeof webhook.timeout_ms === 'number' ? webhook.timeout_ms : 1000,
          headers: isObject(webhook.headers) ? stringRecord(webhook.headers) : {},
          ...(Array.isArray(webhook.allowed_env_vars) ? { allowedEnvVars: webhook.allowed_env_vars.filter((v): v is string => typeof v === 'string') } : {}),
          ...(isObject(webhook.body) ? { body: webhook.body as { [key: string]: JsonValue } } : {}),
        }
      : null,
    record: Array.isArray(record) ? record.map(String) : [...DEFAULT_RECORD],
    // Patterns add up across files: an included pack can add some, no file can remove them.
    redact: ordered.flatMap((f) => redactPatternsOf(f).map(([pattern]) => pattern)),
    ...compileOtlp(firstDefined(ordered, (d) => d.settings?.log?.otlp)?.value),
  };
}

/** `log.otlp` as the first file (top file first) that says it gives it; nothing when none does. */
function compileOtlp(otlp: unknown): Pick<CompiledLog, 'otlp'> {
  if (otlp === false) return { otlp: false };
  if (!isObject(otlp)) return {};
  return {
    otlp: {
      endpoint: typeof otlp.endpoint === 'string' ? otlp.endpoint : null,
      headers: isObject(otlp.headers) ? stringRecord(otlp.headers) : {},
      allowedEnvVars: Array.isArray(otlp.allowed_env_vars) ? otlp.allowed_env_vars.filter((v): v is string => typeof v === 'string') : [],
      timeoutMs: typeof otlp.timeout_ms === 'number' ? Math.min(otlp.timeout_ms, 60_000) : null,
    },
  };
}

/**
 * A file's `settings.log.redact` patterns with their index in the list.
 * @example redactPatternsOf(file) // [['token=\\S+', 0]]
 */
export function redactPatternsOf(file: LoadedFile): Array<[string, number]> {
  const log = isObject(file.doc) && isObject(file.doc.settings) ? file.doc.settings.log : undefined;
  const redact = isObject(log) ? log.redact : undefined;
  if (!Array.isArray(redact)) return [];
  return redact.flatMap((r, i): Array<[string, number]> => (typeof r === 'string' ? [[r, i]] : []));
}

function stringRecord(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

/**
 * For each file, the indices of every bypass that covers it: its own, then its includers', nearest first
 * (breadth-first up the include graph, includers in evaluation order).
 * @example coveringBypasses(files, bypassOf).get('policies/pack.yaml') // [0, 2]
 */
export function coveringBypasses(files: readonly LoadedFile[], bypassOf: Map<string, number>): Map<string, number[]> {
  const includers = new Map<string, string[]>();
  for (const file of files) {
    for (const child of file.includes) includers.set(child, [...(includers.get(child) ?? []), file.file]);
  }
  const result = new Map<string, number[]>();
  for (const file of files) {
    const found: number[] = [];
    const queue = [file.file];
    const seen = new Set(queue);
    while (queue.length > 0) {
      const current = queue.shift() as string;
      const own = bypassOf.get(current);
      if (own !== undefined) found.push(own);
      for (const parent of includers.get(current) ?? []) {
        if (!seen.has(parent)) {
          seen.add(parent);
          queue.push(parent);
        }
      }
    }
    result.set(file.file, found);
  }
  return result;
}
