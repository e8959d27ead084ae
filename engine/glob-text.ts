/**
 * A path written as a glob, and back: the characters a glob gives a meaning to (`*`, `?`,
 * `[...]`, braces, extglob's `(...)`) escaped so they match themselves, and a glob with no
 * wildcard read back as the one path it names.
 */

/**
 * A path whose glob characters match themselves.
 * @example escapeGlob('a[1]/b') // 'a\\[1\\]/b'
 */
export function escapeGlob(path: string): string {
  return path.replace(/([*?[\]{}()!+@])/g, '\\$1');
}

/**
 * The path a glob names when it has no wildcard (escapes removed); null when it has one.
 * @example literalGlob('.claude/settings.json') // '.claude/settings.json'
 * @example literalGlob('node_modules/hookpolicy/**') // null
 */
export function literalGlob(glob: string): string | null {
  return /(?:^|[^\\])(?:\\\\)*[*?[{]/.test(glob) ? null : glob.replace(/\\([\s\S])/g, '$1');
}
