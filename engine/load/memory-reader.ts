/**
 * An in-memory PolicyReader, for tests and for tools that hold policy text already.
 */
import type { PolicyReader } from './includes';

/**
 * A reader over `files` (path -> text); `packs` maps pack names to paths inside `files`.
 * @example memoryReader({ 'p.yaml': 'version: 1\n' }).read('p.yaml') // 'version: 1\n'
 */
export function memoryReader(files: Record<string, string>, packs: Record<string, string> = {}): PolicyReader {
  return {
    read: (file) => (Object.prototype.hasOwnProperty.call(files, file) ? files[file] : null),
    packPath: (name) => (Object.prototype.hasOwnProperty.call(packs, name) ? packs[name] : null),
  };
}
