/** The lint output formats, by the name `--format` takes. */
import type { Formatter } from './format';
import { formatGithub } from './github';
import { formatJson } from './json';
import { formatSarif } from './sarif';
import { formatStylish } from './stylish';

export type { FormatOptions, Formatter } from './format';

export const FORMATTERS: Readonly<Record<string, Formatter>> = {
  stylish: formatStylish,
  json: formatJson,
  sarif: formatSarif,
  github: formatGithub,
};
