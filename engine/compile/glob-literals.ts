/**
 * What every match of a compiled glob must hold, read from its regex's tree at compile
 * time: the ASCII text it starts with (`services/svc0/secrets` for `services/svc0/secrets/**`)
 * and the longest ASCII text it contains (`.env` for `**\/.env`). The compiler stores them
 * with the glob (RegexSource.globLiterals): a path without them cannot match, so the
 * runner need not run the glob's regex, nor compile it in a one-event process.
 */
import { parseRegex, type AST } from '../language/regex-syntax';
import type { RegexSource } from '../types';

export interface GlobLiterals {
  /** '' when unsure. */
  prefix: string;
  /** '' when unsure. */
  required: string;
}

const NONE: GlobLiterals = { prefix: '', required: '' };

/** What the compiler writes before a relative glob's pattern: not absolute, not above the project. */
const RELATIVE_ONLY = '(?!/|\\.\\./)';

/**
 * The glob's literal start and longest literal, or '' for each when the source is not of
 * the compiler's form `^(?!/|\.\./)(?:...)$` or `^(?:...)$`, its flags fold case or lines,
 * or its own group has an alternation.
 * @example globLiterals({ source: '^(?!/|\\.\\./)(?:docs\\/a(?:\\/.*|$))$', flags: 's' }) // { prefix: 'docs/a', required: 'docs/a' }
 */
export function globLiterals(glob: RegexSource): GlobLiterals {
  const f = glob.flags;
  if (f.includes('i') || f.includes('m') || f.includes('u') || f.includes('v')) return NONE;
  const tree = parseRegex(glob.source, f);
  if (tree === null || tree.alternatives.length !== 1) return NONE;
  let body = anchoredGroup(tree.alternatives[0].elements, true);
  // A glob without a slash (`.claude`, `policies.yaml`) comes from picomatch wrapped in an
  // anchored group of its own, `^(?:name)$`: the whole path, as the outer group says.
  const inner = body !== null && body.length === 1 ? anchoredGroup(body[0].elements, false) : null;
  if (inner !== null) body = inner;
  if (body === null || body.length !== 1) return NONE;
  const runs: string[] = [''];
  for (const element of body[0].elements) {
    const text = element.type === 'Character' ? literalText(element) : null;
    if (text === null) runs.push('');
    else runs[runs.length - 1] += text;
  }
  let required = '';
  for (const r of runs) if (r.length > required.length) required = r;
  return { prefix: runs[0], required };
}

/** The alternatives of the group in `^(?:...)$` (or `^(?!/|\.\./)(?:...)$` when `relative` may lead it), else null. */
function anchoredGroup(elements: readonly AST.Element[], relative: boolean): AST.Alternative[] | null {
  const [start, ...rest] = elements;
  const guard = relative && rest[0]?.raw === RELATIVE_ONLY ? 1 : 0;
  const group = rest[guard];
  const end = rest[guard + 1];
  if (rest.length !== guard + 2 || start.type !== 'Assertion' || start.kind !== 'start' || end.type !== 'Assertion' || end.kind !== 'end') return null;
  return group.type === 'Group' && group.modifiers === null ? group.alternatives : null;
}

/** Printable ASCII that is a literal outside a class, as picomatch writes it: itself, or escaped punctuation. */
function literalText(node: AST.Character): string | null {
  const raw = node.raw;
  if (raw.length === 2 && raw[0] === '\\' && /[!-/:-@[-`{-~]/.test(raw[1])) return raw[1];
  return raw.length === 1 && /[\x20-\x7e]/.test(raw) && !'.^$(){}[]|?*+\\'.includes(raw) ? raw : null;
}
