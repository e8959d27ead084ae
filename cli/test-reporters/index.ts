/**
 * The reporters of `policy test`, by --format name.
 */
import type { Reporter } from './common';
import { formatJson } from './json';
import { formatJunit } from './junit';
import { formatPretty } from './pretty';
import { formatTap } from './tap';

export const REPORTERS: Readonly<Record<string, Reporter>> = {
  pretty: formatPretty,
  json: formatJson,
  junit: formatJunit,
  tap: formatTap,
};

export const FORMAT_NAMES: readonly string[] = Object.keys(REPORTERS);

export type { Reporter, ReporterOptions } from './common';
export { summaryLine } from './common';
