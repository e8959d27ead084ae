/**
 * Defence outside the hook: Claude Code's own permission deny rules for hookpolicy's own
 * files, so that a write the hook cannot see (a command the parser does not know) is still
 * refused. Measured with Claude Code 2.1.330: an `Edit(...)` deny rule refuses the file
 * tools and a Bash redirection to the file alike, in every permission mode; with the
 * sandbox on, the same paths also go to `sandbox.filesystem.denyWrite`.
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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function withEntries(list: unknown, entries: readonly string[]): string[] {
  const current = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  return [...current, ...entries.filter((e) => !current.includes(e))];
}

/**
 * Settings with the deny rules added to `permissions.deny`, and the paths to
 * `sandbox.filesystem.denyWrite` when the settings turn the sandbox on; nothing else changes.
 * @example withSelfProtectionPermissions({}, ['/.claude/settings.json']).permissions // { deny: ['Edit(/.claude/settings.json)'] }
 */
export function withSelfProtectionPermissions(settings: SettingsObject, paths: readonly string[]): SettingsObject {
  if (paths.length === 0) return settings;
  const permissions = isObject(settings.permissions) ? settings.permissions : {};
  const next: SettingsObject = { ...settings, permissions: { ...permissions, deny: withEntries(permissions.deny, denyRules(paths)) } };
  const sandbox = settings.sandbox;
  if (isObject(sandbox) && sandbox.enabled === true) {
    const filesystem = isObject(sandbox.filesystem) ? sandbox.filesystem : {};
    next.sandbox = { ...sandbox, filesystem: { ...filesystem, denyWrite: withEntries(filesystem.denyWrite, paths) } };
  }
  return next;
}

/**
 * Settings without the rules and paths init added for these files (uninstall).
 * @example withoutSelfProtectionPermissions(settings, ['/.claude/settings.json'])
 */
export function withoutSelfProtectionPermissions(settings: SettingsObject, paths: readonly string[]): SettingsObject {
  const rules = new Set(denyRules(paths));
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
