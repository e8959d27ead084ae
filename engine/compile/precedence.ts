/**
 * Which file's settings win: root files, last first; then included files, each includer
 * before what it includes (reverse evaluation order).
 */
import type { LoadedFile } from '../types';

/**
 * Files in the order their settings take precedence.
 * @example precedenceOrder([packA, rootB, rootC]).map((f) => f.file) // ['c', 'b', 'a']
 */
export function precedenceOrder(files: readonly LoadedFile[]): LoadedFile[] {
  const reversed = [...files].reverse();
  return [...reversed.filter((f) => f.root), ...reversed.filter((f) => !f.root)];
}

/**
 * The first defined value of `pick` in precedence order.
 * @example firstDefined(order, (doc) => doc.settings?.on_error) // 'closed'
 */
export function firstDefined<T>(ordered: readonly LoadedFile[], pick: (doc: Record<string, any>) => T | undefined): { value: T; file: LoadedFile } | null {
  for (const file of ordered) {
    const doc = file.doc;
    if (typeof doc !== 'object' || doc === null) continue;
    const value = pick(doc as Record<string, any>);
    if (value !== undefined) return { value, file };
  }
  return null;
}
