/**
 * Defence outside the hook: Claude Code's own permission deny rules for hookpolicy's own
 * files, so that a write the hook cannot see (a command the parser does not know) is still
 * refused. Measured with Claude Code 2.1.330: an `Edit(...)` deny rule refuses the file
 * tools and a Bash redirection to the file alike, in every permission mode; a `Read(...)`
 * rule keeps the policy server's token from the file-reading tools. With the sandbox on,
 * Claude Code adds the same paths to the sandbox's write and read denials (sandbox.ts), so
 * one list serves both; `sandbox.filesystem` reads `/x` as an absolute path, not the
 * project's (measured), so init writes nothing there.
 */
import type { SettingsObject } from './types';

/** Where the settings file applies: one project (shared or personal), or every project (user, managed). */
export interface PermissionScope {
  home: string | null;
  /** Committed with the project: names no path of this machine. */
  shared: boolean;
  /** Set for user and managed settings, which apply to every project: this project's files are named absolutely. */
  projectRoot?: string;
}

/**
 * A protected glob as a permission rule's path: `/rel` from the project root, `//abs` for
 * an absolute path, `~/...` under the home folder; null for a path a shared (committed)
 * settings file must not name (this machine's absolute folders).
 * @example permissionPath('.claude/settings.json', { home: '/home/me', shared: true }) // '/.claude/settings.json'
 */
export function permissionPath(glob: string, where: PermissionScope): string | null {
  if (!glob.startsWith('/')) return where.projectRoot ? `/${where.projectRoot.replace(/\/+$/, '')}/${glob}` : `/${glob}`;
  if (where.home && glob.startsWith(`${where.home}/`)) return `~/${glob.slice(where.home.length + 1)}`;
  return where.shared ? null : `/${glob}`;
}

/** The `Edit(...)` deny rules for the protected globs (Edit covers Write, MultiEdit and NotebookEdit). */
export function denyRules(paths: readonly string[]): string[] {
  return paths.map((p) => `Edit(${p})`);
}

/** The `Read(...)` deny rules for what no agent may read (the file tools; and sandboxed commands). */
export function readDenyRules(paths: readonly string[]): string[] {
  return paths.map((p) => `Read(${p})`);
}

/** What init denies: paths no agent may write, and paths no agent may read, as permission-rule paths. */
export interface GuardedPaths {
  write: readonly string[];
  read: readonly string[];
}

/** Every deny rule init writes for these paths. @example allDenyRules({ write: ['/a'], read: ['~/b/**'] }) // ['Edit(/a)', 'Read(~/b/**)'] */
export function allDenyRules(paths: GuardedPaths): string[] {
  return [...denyRules(paths.write), ...readDenyRules(paths.read)];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function withEntries(list: unknown, entries: readonly string[]): string[] {
  const current = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  return [...current, ...entries.filter((e) => !current.includes(e))];
}

/**
 * Settings with the deny rules added to `permissions.deny`; nothing else changes.
 * @example withSelfProtectionPermissions({}, { write: ['/.claude/settings.json'], read: [] }).permissions // { deny: ['Edit(/.claude/settings.json)'] }
 */
export function withSelfProtectionPermissions(settings: SettingsObject, paths: GuardedPaths): SettingsObject {
  const rules = allDenyRules(paths);
  if (rules.length === 0) return settings;
  const permissions = isObject(settings.permissions) ? settings.permissions : {};
  return { ...settings, permissions: { ...permissions, deny: withEntries(permissions.deny, rules) } };
}

/**
 * Settings without the rules init added for these files (uninstall), and without the
 * `sandbox.filesystem.denyWrite` entries earlier versions wrote for them.
 * @example withoutSelfProtectionPermissions(settings, { write: ['/.claude/settings.json'], read: [] })
 */
export function withoutSelfProtectionPermissions(settings: SettingsObject, guarded: GuardedPaths): SettingsObject {
  const paths = guarded.write;
  const rules = new Set(allDenyRules(guarded));
  const next: SettingsObject = { ...settings };
  if (isObject(settings.permissions) && Array.isArray(settings.permissions.deny)) {
    const deny = settings.permissions.deny.filter((r) => !(typeof r === 'string' && rules.has(r)));
    // A list (and a permissions object) that only held init's rules goes, as it came.
    const { deny: _old, ...rest } = settings.permissions;
    const permissions = deny.length > 0 ? { ...rest, deny } : rest;
    if (Object.keys(permissions).length > 0) next.permissions = permissions;
    else delete next.permissions;
  }
  const sandbox = settings.sandbox;
  if (isObject(sandbox) && isObject(sandbox.filesystem) && Array.isArray(sandbox.filesystem.denyWrite)) {
    const drop = new Set(paths);
    next.sandbox = { ...sandbox, filesystem: { ...sandbox.filesystem, denyWrite: sandbox.filesystem.denyWrite.filter((p) => !(typeof p === 'string' && drop.has(p))) } };
  }
  return next;
}
