/**
 * Where the project is: Claude Code's $CLAUDE_PROJECT_DIR, else the event's cwd, else the
 * process's working directory. Always an absolute POSIX path.
 */
import * as path from 'path';

/**
 * Turns a path into absolute POSIX form, resolving it against `base`.
 * @example toAbsolutePosix('src/../a.ts', '/p') // '/p/a.ts'
 */
export function toAbsolutePosix(p: string, base: string): string {
  return path.resolve(base, p).split(path.sep).join('/');
}

/**
 * The project root for an event.
 * @example resolveProjectRoot({ CLAUDE_PROJECT_DIR: '/p' }, { cwd: '/p/src' }, '/tmp') // '/p'
 */
export function resolveProjectRoot(
  env: Readonly<Record<string, string | undefined>>,
  event: Readonly<Record<string, unknown>> | null,
  processCwd: string,
): string {
  const fromEnv = env.CLAUDE_PROJECT_DIR;
  if (fromEnv) return toAbsolutePosix(fromEnv, processCwd);
  const fromEvent = event?.cwd;
  if (typeof fromEvent === 'string' && fromEvent !== '') return toAbsolutePosix(fromEvent, processCwd);
  return toAbsolutePosix('.', processCwd);
}
