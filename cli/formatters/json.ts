/** Lint output as a JSON array of diagnostics, each with a link to its docs section. */
import { docsUrl } from '../../engine/diagnostics';
import { displayPath } from './format';
import type { Formatter } from './format';

/**
 * @example formatJson([d], { cwd: '/p' }) // '[{"code":"yaml-syntax",...,"docs":"docs/diagnostics.md#yaml-syntax"}]\n'
 */
export const formatJson: Formatter = (diagnostics, { cwd }) => {
  const list = diagnostics.map((d) => ({
    ...d,
    ...(d.file !== undefined ? { file: displayPath(d.file, cwd) } : {}),
    docs: docsUrl(d.code),
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
};
