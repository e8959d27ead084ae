/**
 * The paths a tool call touches, normalized for glob matching (docs/language.md "Paths"):
 * POSIX separators, resolved against the event's cwd, `.`/`..` collapsed, relative to the
 * project root when inside it, absolute otherwise.
 */
import type { HookEvent } from '../types';

const FILE_PATH_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'Read']);
const SEARCH_TOOLS = new Set(['Glob', 'Grep', 'LS']);
const DRIVE = /^[A-Za-z]:\//;
/** A POSIX absolute path needs collapsing when it has empty, `.` or `..` segments or a trailing slash. */
const NOT_CANONICAL = /\/(?:\.{0,2})(?:\/|$)/;

/** A touched path as the tool call gives it, with the folder it is relative to. */
export interface RawPath {
  raw: string;
  cwd: string;
}

/**
 * The paths the event's tool touches, as given, or [] for tools that touch none.
 * @example rawTouchedPaths({ hook_event_name: 'PreToolUse', tool_name: 'Read', cwd: '/p',
 *                            tool_input: { file_path: 'a' } }, '/p') // [{ raw: 'a', cwd: '/p' }]
 */
export function rawTouchedPaths(event: HookEvent, projectRoot: string): RawPath[] {
  const tool = event.tool_name;
  if (typeof tool !== 'string') return [];
  const input = event.tool_input;
  const fields = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const cwd = typeof event.cwd === 'string' && event.cwd !== '' ? event.cwd : projectRoot;
  let raw: unknown;
  if (FILE_PATH_TOOLS.has(tool)) raw = fields.file_path;
  else if (tool === 'NotebookEdit') raw = fields.notebook_path;
  else if (SEARCH_TOOLS.has(tool)) raw = typeof fields.path === 'string' && fields.path !== '' ? fields.path : cwd;
  else return [];
  if (typeof raw !== 'string' || raw === '') return [];
  return [{ raw, cwd }];
}

/**
 * The normalized paths the event's tool touches, or [] for tools that touch none.
 * @example touchedPaths({ hook_event_name: 'PreToolUse', tool_name: 'Write', cwd: '/p',
 *                         tool_input: { file_path: 'src/a.ts' } }, '/p') // ['src/a.ts']
 */
export function touchedPaths(event: HookEvent, projectRoot: string): string[] {
  return rawTouchedPaths(event, projectRoot).map((p) => normalizePath(p.raw, p.cwd, projectRoot));
}

/**
 * One path as the matcher sees it: project-relative (`.` for the root itself) when inside
 * the project, absolute POSIX (`/etc/hosts`, `D:/x`) otherwise. With `backslash: 'literal'`
 * a backslash is a character of the name (as on Linux and macOS), not a separator, and a
 * drive letter (`C:/x`) is a folder name, not a drive.
 * @example normalizePath('C:\\proj\\src\\a.ts', '/ignored', 'C:/proj') // 'src/a.ts'
 * @example normalizePath('../other/x', '/p/sub', '/p') // 'other/x'
 */
export function normalizePath(raw: string, cwd: string, projectRoot: string, options: { backslash?: 'separator' | 'literal' } = {}): string {
  const root = absolutePath(projectRoot, '/');
  // Under a POSIX root (Linux, macOS, WSL) `C:/x` is a folder named `C:`, not a drive.
  const drives = !root.startsWith('/');
  const base = absolutePath(cwd, root);
  const full = options.backslash === 'literal' ? absoluteAs(raw, base, false, false) : absoluteAs(raw, base, true, drives);
  if (full === root) return '.';
  // Drive letters were upper-cased by collapse, so a plain prefix test is enough.
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}

/**
 * `raw` resolved against an absolute base and collapsed to a canonical absolute POSIX path.
 * @example absolutePath('../b', '/p/a') // '/p/b'
 */
export function absolutePath(raw: string, base: string): string {
  return absoluteAs(raw, base, true, true);
}

function absoluteAs(raw: string, base: string, separator: boolean, drives = true): string {
  const path = separator && raw.includes('\\') ? raw.replace(/\\/g, '/') : raw;
  const full = (drives ? isAbsolute(path) : path.startsWith('/')) ? path : `${base}/${path}`;
  return full.charCodeAt(0) === 47 && !NOT_CANONICAL.test(full) ? full : collapse(full);
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || DRIVE.test(path) || /^[A-Za-z]:$/.test(path);
}

/** Collapses `.`, `..` and empty segments; keeps a leading `/` or drive letter (`C:`). */
function collapse(path: string): string {
  let head = '';
  let rest = path;
  const drive = /^([A-Za-z]:)(\/|$)/.exec(path);
  if (drive) {
    head = `${drive[1].toUpperCase()}/`;
    rest = path.slice(drive[0].length);
  } else {
    head = '/';
  }
  const out: string[] = [];
  for (const segment of rest.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return head + out.join('/');
}

