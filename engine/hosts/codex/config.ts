/**
 * The runner's entries in Codex's `config.toml`, and the trust Codex asks for them.
 *
 * Entries: one block between marker comments in the project's `.codex/config.toml`
 * (`[[hooks.PreToolUse]]` tables), replaced whole by the next `policy init`; the rest of
 * the file is the user's and stays as written, comments included.
 *
 * Trust: Codex runs a hook from a project or user layer only once the user has trusted
 * it: `[hooks.state."<file>:<event_label>:<group>:<handler>"] trusted_hash = "sha256:…"`
 * in the user's `$CODEX_HOME/config.toml`, the hash being SHA-256 of the hook's normalized
 * identity (event label, matcher, the one handler with its defaults filled in) as
 * canonical JSON. A hook without it, or whose hash no longer matches (the entry was
 * edited), is skipped with no warning (measured on 0.171.0). So init records the trust of
 * the entries it wrote, and `--check` recomputes it. The project layer itself is read only
 * in a project Codex trusts (`[projects."<root>"] trust_level = "trusted"`).
 */
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import { sha256 } from '../../decision-log/sha256';
import { isRunnerHook } from '../../init/runner';
import type { HostGroup } from '../plan';
import { codexEventLabel } from './events';

const START = '# >>> hookpolicy: the runner\'s hooks, written by `policy init --host codex` (edit the policy, then run it again)';
const END = '# <<< hookpolicy';
const TRUST_START = '# >>> hookpolicy trust:';
const TRUST_END = '# <<< hookpolicy trust:';

/** Codex's default hook timeout, in seconds, when an entry gives none. */
const DEFAULT_TIMEOUT = 600;

/** Events whose matcher Codex reads; on the others it ignores one (and hashes none). */
const MATCHED = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse', 'SessionStart']);

/**
 * The block of `[[hooks.<Event>]]` tables for the groups, between its markers.
 * @example codexHooksBlock([{ event: 'Stop', ruleEvent: 'Stop' }], 'node x hook --host codex', 10)
 */
export function codexHooksBlock(groups: readonly HostGroup[], command: string, timeout: number): string {
  const lines = [START];
  for (const g of groups) {
    lines.push(`[[hooks.${g.event}]]`);
    if (g.matcher !== undefined) lines.push(stringifyToml({ matcher: g.matcher }).trim());
    lines.push(`[[hooks.${g.event}.hooks]]`, stringifyToml({ type: 'command', command, timeout }).trim(), '');
  }
  lines.push(END);
  return `${lines.join('\n')}\n`;
}

/**
 * `text` with the block in place of the one init wrote before (or appended), or without it
 * when `block` is null.
 */
export function withCodexBlock(text: string, block: string | null): string {
  return replaceBlock(text, START, END, block);
}

/** One runner entry of a parsed config.toml as Codex keys and hashes its trust. */
export interface CodexHookTrust {
  /** `<config file>:<event_label>:<group index>:<handler index>`. */
  key: string;
  event: string;
  hash: string;
}

/**
 * Every runner entry of a parsed config.toml (`configFile`: its absolute path, as Codex
 * names it in the key), with the key and hash Codex computes for it.
 * @example codexRunnerTrust(parseToml(text), '/p/.codex/config.toml')[0].key // '/p/.codex/config.toml:pre_tool_use:0:0'
 */
export function codexRunnerTrust(config: Record<string, unknown>, configFile: string): CodexHookTrust[] {
  const hooks = isObject(config.hooks) ? config.hooks : {};
  const out: CodexHookTrust[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (event === 'state' || !Array.isArray(groups)) continue;
    groups.forEach((group, gi) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((handler, hi) => {
        if (!isRunnerHook(handler)) return;
        const matcher = MATCHED.has(event) && typeof group.matcher === 'string' ? group.matcher : undefined;
        out.push({ key: `${configFile}:${codexEventLabel(event)}:${gi}:${hi}`, event, hash: codexHookHash(event, matcher, handler as Record<string, unknown>) });
      });
    });
  }
  return out;
}

/**
 * The hash Codex trusts a command hook by: SHA-256 of `{event_name, matcher?, hooks: [handler]}`
 * as canonical JSON (keys sorted), the handler normalized as Codex does (timeout 600 when
 * absent, async false when absent; absent optional fields left out).
 * @example codexHookHash('PreToolUse', 'Bash', { type: 'command', command: 'x', timeout: 10 }) // 'sha256:…'
 */
export function codexHookHash(event: string, matcher: string | undefined, handler: Record<string, unknown>): string {
  const normalized: Record<string, unknown> = {
    type: 'command',
    command: handler.command,
    timeout: Math.max(1, typeof handler.timeout === 'number' ? handler.timeout : DEFAULT_TIMEOUT),
    async: handler.async === true,
  };
  if (typeof handler.statusMessage === 'string') normalized.statusMessage = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: codexEventLabel(event), hooks: [normalized] };
  if (matcher !== undefined) identity.matcher = matcher;
  return `sha256:${sha256().update(new TextEncoder().encode(JSON.stringify(canonical(identity)))).hex()}`;
}

/** What the user's config says of a hook: whether it is trusted as it is, and whether it is switched off. */
export interface CodexHookState {
  trusted: 'trusted' | 'untrusted' | 'modified';
  disabled: boolean;
}

/**
 * A runner entry's state in the user's parsed config.toml.
 * @example codexHookState(userConfig, entry) // { trusted: 'trusted', disabled: false }
 */
export function codexHookState(userConfig: Record<string, unknown>, entry: CodexHookTrust): CodexHookState {
  const hooks = isObject(userConfig.hooks) ? userConfig.hooks : {};
  const states = isObject(hooks.state) ? hooks.state : {};
  const state = isObject(states[entry.key]) ? states[entry.key] as Record<string, unknown> : {};
  const hash = typeof state.trusted_hash === 'string' ? state.trusted_hash : null;
  return { trusted: hash === null ? 'untrusted' : hash === entry.hash ? 'trusted' : 'modified', disabled: state.enabled === false };
}

/**
 * True when the user's parsed config.toml trusts the project, itself or the nearest folder
 * above it that has a trust level (Codex reads its `.codex/` then).
 * @example codexProjectTrusted(userConfig, '/home/me/shop') // true
 */
export function codexProjectTrusted(userConfig: Record<string, unknown>, projectRoot: string): boolean {
  const projects = isObject(userConfig.projects) ? userConfig.projects : {};
  for (let dir = projectRoot.replace(/\/+$/, ''); ; dir = dir.slice(0, dir.lastIndexOf('/'))) {
    const entry = projects[dir === '' ? '/' : dir];
    if (isObject(entry) && typeof entry.trust_level === 'string') return entry.trust_level === 'trusted';
    if (dir === '' || !dir.includes('/')) return false;
  }
}

/**
 * The user config's trust block for one project's runner entries (the entries already
 * trusted outside it are left to the user's own lines).
 */
export function codexTrustBlock(projectRoot: string, entries: readonly CodexHookTrust[]): string | null {
  if (entries.length === 0) return null;
  const lines = [`${TRUST_START} ${projectRoot}`];
  for (const e of entries) lines.push(`[hooks.state.${JSON.stringify(e.key)}]`, stringifyToml({ trusted_hash: e.hash }).trim());
  lines.push(`${TRUST_END} ${projectRoot}`);
  return `${lines.join('\n')}\n`;
}

/** The user's config.toml text with this project's trust block replaced (or added, or removed when null). */
export function withTrustBlock(text: string, projectRoot: string, block: string | null): string {
  return replaceBlock(text, `${TRUST_START} ${projectRoot}`, `${TRUST_END} ${projectRoot}`, block);
}

/**
 * A config.toml's text as an object; null with the reason when it is not valid TOML.
 * @example readCodexToml('a = 1') // { config: { a: 1 }, problem: null }
 */
export function readCodexToml(text: string): { config: Record<string, unknown> | null; problem: string | null } {
  try {
    return { config: parseToml(text) as Record<string, unknown>, problem: null };
  } catch (e) {
    return { config: null, problem: `not valid TOML (${(e as Error).message.split('\n')[0]})` };
  }
}

/** The text with the block between `start` and `end` replaced in place, appended when absent, removed when null. */
function replaceBlock(text: string, start: string, end: string, block: string | null): string {
  const from = text.indexOf(`${start}\n`);
  const to = from >= 0 ? text.indexOf(`${end}\n`, from) : -1;
  if (from >= 0 && to >= 0) return `${text.slice(0, from)}${block ?? ''}${text.slice(to + end.length + 1)}`;
  if (block === null) return text;
  const head = text === '' || text.endsWith('\n\n') ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`;
  return `${head}${block}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
