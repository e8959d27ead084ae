/**
 * `policy init --sandbox`: Claude Code's own sandbox (bubblewrap on Linux, Seatbelt on
 * macOS) as the backstop under the hook. A process of the user can always signal the user's
 * processes and write the user's files with code the hook cannot read; a Bash command run in
 * the sandbox cannot: it runs in namespaces of its own (no process outside it to signal),
 * writes only the project and Claude Code's temp folder, and not the paths Claude Code's
 * `Edit(...)` deny rules name, nor reads those its `Read(...)` deny rules name (Claude Code
 * merges both into the sandbox's lists: measured with 2.1.330). So the paths are the ones
 * init already writes as permission rules (permissions.ts); this module adds the switches
 * that make the sandbox hold, and `--check`'s reading of them.
 *
 * Measured with Claude Code 2.1.330 (test/real-client/sandbox.test.ts):
 * - `allowUnsandboxedCommands: false`: a command that asks for `dangerouslyDisableSandbox`
 *   still runs in the sandbox; without it, it runs outside, unasked under bypassPermissions.
 * - The http hooks go through the sandbox's network proxy: outside bypassPermissions the
 *   proxy refuses the policy server's address (HTTP 403, every guarded call refused) unless
 *   `network.allowedDomains` lists `127.0.0.1:<port>`; and a sandboxed command reaches that
 *   port through the same proxy. The sandbox keeps the port from nobody.
 */
import type { SettingsSource } from './drift';
import type { SettingsObject } from './types';

/** What `--sandbox` sets in settings.sandbox; every other key there is the team's and stays. */
export const SANDBOX_SWITCHES: Readonly<Record<string, boolean>> = {
  enabled: true,
  // Where the sandbox cannot start (no bubblewrap or socat), Claude Code would run commands
  // unsandboxed with a warning: refuse to start instead.
  failIfUnavailable: true,
  // Without it the model asks for dangerouslyDisableSandbox and the command runs outside.
  allowUnsandboxedCommands: false,
};

/** Keys that take the guard's commands out of the sandbox, or take its walls down. */
const WEAKENING: ReadonlyArray<{ path: string[]; value: unknown; why: string }> = [
  { path: ['filesystem', 'disabled'], value: true, why: 'sandboxed commands write every file the user can' },
  { path: ['allowNestedUserNamespaces'], value: true, why: 'a sandboxed command can make a namespace of its own and write past the deny lists' },
  { path: ['enableWeakerNestedSandbox'], value: true, why: 'sandboxed commands read the host\'s /proc' },
];

/**
 * How the sandbox's proxy names the policy server, for `network.allowedDomains`.
 * @example serverDomain(8707) // '127.0.0.1:8707'
 */
export function serverDomain(port: number): string {
  return `127.0.0.1:${port}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * True when the settings turn the sandbox on.
 * @example sandboxOn({ sandbox: { enabled: true } }) // true
 */
export function sandboxOn(settings: SettingsObject): boolean {
  return isObject(settings.sandbox) && settings.sandbox.enabled === true;
}

/**
 * The settings with the sandbox on, as `--sandbox` writes it; with the http entries'
 * `port`, its address in `network.allowedDomains` (else no permission mode but
 * bypassPermissions reaches the server). Nothing else changes.
 * @example withSandbox({}, 8707).sandbox // { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, network: { allowedDomains: ['127.0.0.1:8707'] } }
 */
export function withSandbox(settings: SettingsObject, port: number | null): SettingsObject {
  const sandbox = isObject(settings.sandbox) ? settings.sandbox : {};
  const next: Record<string, unknown> = { ...sandbox, ...SANDBOX_SWITCHES };
  if (port !== null) {
    const network = isObject(sandbox.network) ? sandbox.network : {};
    const allowed = Array.isArray(network.allowedDomains) ? network.allowedDomains : [];
    const domain = serverDomain(port);
    next.network = { ...network, allowedDomains: allowed.includes(domain) ? allowed : [...allowed, domain] };
  }
  return { ...settings, sandbox: next };
}

/** A settings value by path, or undefined. */
function at(settings: SettingsObject, keys: readonly string[]): unknown {
  let v: unknown = settings;
  for (const k of keys) v = isObject(v) ? v[k] : undefined;
  return v;
}

/** The file whose value wins (sources run from lowest to highest precedence), or null. */
function winner(sources: readonly SettingsSource[], keys: readonly string[]): { file: string; value: unknown } | null {
  for (let i = sources.length - 1; i >= 0; i--) {
    const value = at(sources[i].settings, keys);
    if (value !== undefined) return { file: sources[i].file, value };
  }
  return null;
}

/** Every string of a list key, across the files (Claude Code merges these lists). */
function merged(sources: readonly SettingsSource[], keys: readonly string[]): string[] {
  return [...new Set(sources.flatMap((s) => {
    const v = at(s.settings, keys);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }))];
}

export interface SandboxCheck {
  /** The http entries' port, or null in command mode. */
  port: number | null;
  /** The permission deny rules init writes for this project (`Edit(...)`, `Read(...)`). */
  denyRules: readonly string[];
}

/**
 * What keeps the sandbox from holding, when a settings file turns it on; [] when none
 * does (a team that never asked for it is told nothing). `sources` run from the lowest
 * precedence to the highest (user, project, local, managed), as Claude Code reads them.
 * @example sandboxDrift([{ file: '.claude/settings.json', settings: { sandbox: { enabled: true } } }], { port: null, denyRules: [] })
 *   // ['sandbox: failIfUnavailable is not true: ...', 'sandbox: allowUnsandboxedCommands is not false: ...']
 */
export function sandboxDrift(sources: readonly SettingsSource[], check: SandboxCheck): string[] {
  const asked = sources.filter((s) => at(s.settings, ['sandbox', 'enabled']) === true).map((s) => s.file);
  if (asked.length === 0) return [];
  const out: string[] = [];
  const enabled = winner(sources, ['sandbox', 'enabled']);
  if (enabled?.value !== true) {
    out.push(`sandbox: ${enabled?.file} sets sandbox.enabled to ${JSON.stringify(enabled?.value)}, which wins over ${asked.join(', ')}: Bash runs outside the sandbox`);
    return out;
  }
  const failIf = winner(sources, ['sandbox', 'failIfUnavailable']);
  if (failIf?.value !== true) out.push('sandbox: failIfUnavailable is not true: where the sandbox cannot start (bubblewrap or socat missing), Claude Code runs Bash unsandboxed with a warning');
  const unsandboxed = winner(sources, ['sandbox', 'allowUnsandboxedCommands']);
  if (unsandboxed?.value !== false) out.push('sandbox: allowUnsandboxedCommands is not false: a command that asks for dangerouslyDisableSandbox runs outside the sandbox (unasked under bypassPermissions)');
  const excluded = merged(sources, ['sandbox', 'excludedCommands']);
  if (excluded.length > 0) out.push(`sandbox: excludedCommands run outside the sandbox: ${excluded.join(', ')}`);
  for (const w of WEAKENING) {
    const v = winner(sources, ['sandbox', ...w.path]);
    if (v !== null && v.value === w.value) out.push(`sandbox: ${v.file} sets sandbox.${w.path.join('.')}: ${w.why}`);
  }
  if (check.port !== null) {
    const allowed = merged(sources, ['sandbox', 'network', 'allowedDomains']);
    const domain = serverDomain(check.port);
    if (!allowed.includes(domain) && !allowed.includes('127.0.0.1') && !allowed.includes('*')) {
      out.push(`sandbox: network.allowedDomains lacks ${domain}: the http entries reach the policy server through the sandbox's proxy, which refuses it (HTTP 403) in every permission mode but bypassPermissions, and every call they guard is refused`);
    }
  }
  const deny = new Set(merged(sources, ['permissions', 'deny']));
  const missing = check.denyRules.filter((r) => !deny.has(r));
  if (missing.length > 0) {
    const shown = missing.slice(0, 3).join(', ') + (missing.length > 3 ? `, and ${missing.length - 3} more` : '');
    out.push(`sandbox: permissions.deny lacks ${shown}: the sandbox denies only the paths these rules name, so sandboxed commands can reach them`);
  }
  return out;
}
