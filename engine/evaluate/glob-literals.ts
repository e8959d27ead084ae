/**
 * What every match of a compiled glob must hold, read from its source without compiling
 * it: the ASCII text it starts with (`services/svc0/secrets` for `services/svc0/secrets/**`)
 * and the longest ASCII text it contains (`.env` for `**\/.env`). A path without them
 * cannot match, so its regex need not run, nor be compiled in a one-event process.
 * Read with a few native string operations, not a loop over characters: a loop over the
 * sources of a policy's globs gets hot enough for V8 to optimize it on another thread,
 * and a process that exits waits for that compile (~5-10 ms).
 */
import type { RegexSource } from '../types';

export interface GlobLiterals {
  /** '' when unsure. */
  prefix: string;
  /** '' when unsure. */
  required: string;
}

const NONE: GlobLiterals = { prefix: '', required: '' };

/** What the compiler writes before a relative glob's pattern (not absolute, not above the project), and before an absolute one's. */
const STARTS = ['^(?!/|\\.\\./)(?:', '^(?:'];
/** Characters used below as stand-ins: a source holding one is not read. */
const STAND_INS = /[\uE000-\uE0FF]/;
/** An escaped ASCII punctuation character (itself), or any other escape (\d, \b, \u0041...: not a literal). */
const ESCAPE = /\\([!-/:-@[-`{-~])|\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[\s\S])/g;
const CLASS = /\[[^\]]*\]/g;
const GROUP = /\([^()]*\)/g;
/** An atom made optional or repeated by a quantifier: it is not a literal of every match. */
const QUANTIFIED = /[\s\S](?:[?*+]|\{\d*,?\d*\})\??/g;
/** What ends a literal run: any construct, a stand-in for one, a character outside printable ASCII. */
const NOT_LITERAL = /[.^$(){}[\]|?*+\uE080\u0000-\u001f\u007f-\uDFFF\uE100-\uFFFF]/;
const ESCAPED = /[\uE000-\uE07F]/g;
/** Stand-in for a group, a class, an escape that is not a literal, a quantified atom. */
const CONSTRUCT = '\uE080';

/**
 * The glob's literal start and longest literal, or '' for each when the source is not of
 * the compiler's form `^(?!/|\.\./)(?:...)$` or `^(?:...)$`, its flags fold case or lines,
 * or its own group has an alternation.
 * @example globLiterals({ source: '^(?!/|\\.\\./)(?:docs\\/a(?:\\/.*|$))$', flags: 's' }) // { prefix: 'docs/a', required: 'docs/a' }
 */
export function globLiterals(glob: RegexSource): GlobLiterals {
  const s = glob.source;
  const f = glob.flags;
  if (f.includes('i') || f.includes('m') || f.includes('u') || f.includes('v') || !s.endsWith(')$') || STAND_INS.test(s)) return NONE;
  const start = STARTS.find((p) => s.startsWith(p));
  if (start === undefined) return NONE;
  let body = s.slice(start.length, -2);
  // A glob without a slash (`.claude`, `policies.yaml`) comes from picomatch wrapped in an
  // anchored group of its own, `^(?:name)$`: the whole path, as the outer group says. A
  // group that does not span the body leaves parentheses that do not balance (below).
  if (body.startsWith('^(?:') && body.endsWith(')$')) body = body.slice(4, -2);
  body = body
    .replace(ESCAPE, (_, punct: string | undefined) => (punct === undefined ? CONSTRUCT : String.fromCharCode(0xe000 + punct.charCodeAt(0))))
    .replace(CLASS, CONSTRUCT);
  // Inner groups, innermost first: a group's own alternation stays inside it.
  for (let before = ''; before !== body; ) {
    before = body;
    body = body.replace(GROUP, CONSTRUCT);
  }
  // Left over: a parenthesis that does not balance (the group does not end at `)$`) or an alternation of the glob's own group.
  if (body.includes('(') || body.includes(')') || body.includes('|') || body.includes('[')) return NONE;
  const runs = body.replace(QUANTIFIED, CONSTRUCT).split(NOT_LITERAL).map((r) => r.replace(ESCAPED, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000)));
  let required = '';
  for (const r of runs) if (r.length > required.length) required = r;
  return { prefix: runs[0], required };
}
