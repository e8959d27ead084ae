/**
 * Colour for the human report formats (lint's stylish, test's pretty): on when the report
 * goes to a terminal, never otherwise. NO_COLOR (any non-empty value) turns it off;
 * FORCE_COLOR turns it on without a terminal (1, 2, 3 or true) or off on one (0 or
 * false), and wins over NO_COLOR, as in Node and chalk. Plain ANSI codes: the hook path
 * never loads this file.
 */

export interface Palette {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  underline(text: string): string;
}

/**
 * Whether a report written to a terminal (or not) is coloured.
 * @example useColor({ NO_COLOR: '1' }, true) // false
 * @example useColor({ FORCE_COLOR: '1' }, false) // true
 */
export function useColor(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = (env.FORCE_COLOR ?? '').toLowerCase();
  if (force === '0' || force === 'false') return false;
  if (force === '1' || force === '2' || force === '3' || force === 'true') return true;
  if (env.NO_COLOR) return false;
  return isTTY && env.TERM !== 'dumb';
}

const style = (open: number, close: number) => (text: string) => (text === '' ? '' : `\u001b[${open}m${text}\u001b[${close}m`);
const plain = (text: string) => text;

const COLORS: Palette = {
  red: style(31, 39),
  yellow: style(33, 39),
  green: style(32, 39),
  cyan: style(36, 39),
  dim: style(2, 22),
  bold: style(1, 22),
  underline: style(4, 24),
};

const NO_COLORS: Palette = { red: plain, yellow: plain, green: plain, cyan: plain, dim: plain, bold: plain, underline: plain };

/**
 * The styles, or functions that return the text as it is.
 * @example palette(true).red('error') // '\u001b[31merror\u001b[39m'
 */
export function palette(enabled: boolean | undefined): Palette {
  return enabled ? COLORS : NO_COLORS;
}
