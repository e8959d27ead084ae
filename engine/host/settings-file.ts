/**
 * Claude Code settings files on disk: where each scope's file is, reading it as JSON, and
 * writing it back in its own indentation after saving a backup of what was there.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SettingsObject } from '../init/types';

export type SettingsScope = 'project' | 'local' | 'user';
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['user', 'project', 'local'];

/**
 * The settings file of a scope.
 * @example settingsPath('local', '/p', '/home/me') // '/p/.claude/settings.local.json'
 */
export function settingsPath(scope: SettingsScope, projectRoot: string, home: string): string {
  switch (scope) {
    case 'project': return path.join(projectRoot, '.claude', 'settings.json');
    case 'local': return path.join(projectRoot, '.claude', 'settings.local.json');
    case 'user': return path.join(home, '.claude', 'settings.json');
  }
}

/**
 * The folder Claude Code reads managed (organisation) settings from on this platform.
 * @example managedSettingsDir('linux') // '/etc/claude-code'
 */
export function managedSettingsDir(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode';
  return '/etc/claude-code';
}

/**
 * hookpolicy's own drop-in in the managed settings folder (Claude Code merges every file of
 * managed-settings.d/ into managed-settings.json).
 * @example managedDropInPath('/etc/claude-code') // '/etc/claude-code/managed-settings.d/hookpolicy.json'
 */
export function managedDropInPath(dir: string): string {
  return path.join(dir, 'managed-settings.d', 'hookpolicy.json');
}

export interface SettingsFile {
  file: string;
  exists: boolean;
  /** The parsed object; {} for a missing file; null when the file is not usable JSON. */
  settings: SettingsObject | null;
  /** Why the file cannot be used, when settings is null. */
  problem: string | null;
  /** The file's own indentation (two spaces by default). */
  indent: string;
  /** The text as read, for the unchanged check and the backup. */
  text: string | null;
}

/**
 * Reads a settings file; a missing file reads as {}.
 * @example readSettingsFile('/p/.claude/settings.json').settings // { hooks: {...}, model: '...' }
 */
export function readSettingsFile(file: string): SettingsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { file, exists: false, settings: {}, problem: null, indent: '  ', text: null };
    return { file, exists: true, settings: null, problem: `cannot read it (${code ?? (e as Error).message})`, indent: '  ', text: null };
  }
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  if (text.trim() === '') return { file, exists: true, settings: {}, problem: null, indent, text };
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { file, exists: true, settings: null, problem: 'it is not a JSON object', indent, text };
    }
    return { file, exists: true, settings: value as SettingsObject, problem: null, indent, text };
  } catch (e) {
    return { file, exists: true, settings: null, problem: `it is not valid JSON (${(e as Error).message})`, indent, text };
  }
}

/**
 * The text a settings object is written as, in the file's indentation, ending with a newline.
 * @example settingsText({ a: 1 }, '  ') // '{\n  "a": 1\n}\n'
 */
export function settingsText(settings: SettingsObject, indent: string): string {
  return `${JSON.stringify(settings, null, indent)}\n`;
}

/**
 * Writes new settings, first copying the old file to `<file>.bak` (or a timestamped
 * `<file>.<stamp>.bak` when a backup already exists). Returns the backup's path, or null
 * when there was no file to back up.
 */
export function writeSettingsFile(current: SettingsFile, settings: SettingsObject, now: Date = new Date()): { backup: string | null } {
  fs.mkdirSync(path.dirname(current.file), { recursive: true });
  let backup: string | null = null;
  if (current.exists && current.text !== null) {
    backup = freeBackupName(current.file, now);
    fs.writeFileSync(backup, current.text);
  }
  const temp = `${current.file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, settingsText(settings, current.indent));
  fs.renameSync(temp, current.file);
  return { backup };
}

function freeBackupName(file: string, now: Date): string {
  const plain = `${file}.bak`;
  if (!fs.existsSync(plain)) return plain;
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  let candidate = `${file}.${stamp}.bak`;
  for (let n = 2; fs.existsSync(candidate); n++) candidate = `${file}.${stamp}-${n}.bak`;
  return candidate;
}
