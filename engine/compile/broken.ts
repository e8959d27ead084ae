/**
 * What a build leaves out when part of a policy is broken. An error breaks what it is
 * about (its PlacedDiagnostic): one rule, which is left out; a whole file, whose rules are
 * left out; or the policy, which then does not build at all. Each rule or file left out
 * keeps the events and tools it could have judged (a BrokenRule), so that the runner
 * leaves exactly those events to on_error and the valid rules decide the others.
 */
import { EVENT_NAMES } from '../protocol';
import { pointerSegments, toPointer } from '../load/source-map';
import type { BrokenRule, Diagnostic, LoadedFile, PlacedDiagnostic } from '../types';
import { isObject } from './context';
import { compileTools } from './tools';

const KNOWN_EVENTS = new Set<string>(EVENT_NAMES);

/** What one error breaks. */
export type ErrorScope =
  | { kind: 'policy' }
  | { kind: 'file'; file: string }
  | { kind: 'rule'; file: string; index: number }
  | { kind: 'part'; file: string; name: string };

/**
 * The scope of an error:
 * - the policy: a root file that cannot be read, is not a mapping or has no valid
 *   `version` (nothing says what the policy is), `settings` or `agents` that are not
 *   mappings, and anything in `agents` (roles say whom every rule applies to);
 * - a part: one key of `settings` (it is left out, its default applies) or one entry of
 *   `include` (the file it names is not loaded), any event left to on_error;
 * - a rule: anything inside `rules[i]`;
 * - the file: anything else (its YAML, its includes, an unknown top-level key, `rules`
 *   that is not a list, an included file's document or `version`).
 * @example scopeOf({ diagnostic, file: 'p.yaml', pointer: '/rules/2/tool' }, files) // { kind: 'rule', file: 'p.yaml', index: 2 }
 */
export function scopeOf(placed: PlacedDiagnostic, files: ReadonlyMap<string, LoadedFile>): ErrorScope {
  const file = placed.file === null ? undefined : files.get(placed.file);
  if (!file) return { kind: 'policy' };
  const [top, index] = pointerSegments(placed.pointer);
  // One setting, or one include: left out alone, the rest of the policy enforcing (a typo
  // such as `on_eror: closed` or `include: [securty-guard]` had switched every rule off).
  if (top === 'settings' && index !== undefined) return { kind: 'part', file: file.file, name: `settings.${index}` };
  if (top === 'include' && index !== undefined && /^\d+$/.test(index)) return { kind: 'part', file: file.file, name: includeName(file, Number(index)) };
  if (top === 'settings' || top === 'agents') return { kind: 'policy' };
  if (top === 'rules' && index !== undefined && /^\d+$/.test(index)) return { kind: 'rule', file: file.file, index: Number(index) };
  if (file.root && (top === undefined || top === 'version')) return { kind: 'policy' };
  return { kind: 'file', file: file.file };
}

/** The include entry as written (`include securty-guard`), or its index. */
function includeName(file: LoadedFile, index: number): string {
  const list = isObject(file.doc) && Array.isArray(file.doc.include) ? file.doc.include : [];
  return typeof list[index] === 'string' ? `include ${list[index] as string}` : `include[${index}]`;
}

/** The errors of a build sorted by what they break. */
export interface Breakage {
  /** Errors that fail the whole policy. */
  fatal: Diagnostic[];
  /** Settings and includes left out alone, by file and name, with their errors. */
  parts: Map<string, Map<string, PlacedDiagnostic[]>>;
  /** Files left out as a whole, with every error found in them. */
  files: Map<string, PlacedDiagnostic[]>;
  /** Rules left out, by file and index in `rules`, with their errors. */
  rules: Map<string, Map<number, PlacedDiagnostic[]>>;
}

/**
 * Sorts the error-severity diagnostics of a build by scope; warnings break nothing.
 * @example sortBreakage(placed, files).fatal.length // 0: the policy builds
 */
export function sortBreakage(placed: readonly PlacedDiagnostic[], files: readonly LoadedFile[]): Breakage {
  const byName = new Map(files.map((f) => [f.file, f]));
  const breakage: Breakage = { fatal: [], files: new Map(), rules: new Map(), parts: new Map() };
  const errors = placed.filter((p) => p.diagnostic.severity === 'error');
  for (const p of errors) {
    const scope = scopeOf(p, byName);
    if (scope.kind === 'policy') breakage.fatal.push(p.diagnostic);
    else if (scope.kind === 'file') breakage.files.set(scope.file, []);
  }
  for (const p of errors) {
    const scope = scopeOf(p, byName);
    if (scope.kind === 'policy') continue;
    const whole = breakage.files.get(scope.file);
    if (whole) whole.push(p);
    else if (scope.kind === 'part') {
      const parts = breakage.parts.get(scope.file) ?? new Map<string, PlacedDiagnostic[]>();
      breakage.parts.set(scope.file, parts);
      parts.set(scope.name, [...(parts.get(scope.name) ?? []), p]);
    } else if (scope.kind === 'rule') {
      const rules = breakage.rules.get(scope.file) ?? new Map<number, PlacedDiagnostic[]>();
      breakage.rules.set(scope.file, rules);
      rules.set(scope.index, [...(rules.get(scope.index) ?? []), p]);
    }
  }
  return breakage;
}

/** True when rule `index` of `file` is left out, alone or with its whole file. */
export function isLeftOut(breakage: Breakage, file: string, index: number): boolean {
  return breakage.files.has(file) || breakage.rules.get(file)?.has(index) === true;
}

/**
 * The rules and files left out, in policy order, with what each could have judged.
 * @example brokenRules(breakage, files) // [{ kind: 'rule', name: 'no-src-writes', events: ['PreToolUse'], tools: null, ... }]
 */
export function brokenRules(breakage: Breakage, files: readonly LoadedFile[]): BrokenRule[] {
  const out: BrokenRule[] = [];
  for (const file of files) {
    const whole = breakage.files.get(file.file);
    if (whole) {
      const first = whole[0].diagnostic;
      const source = { file: file.file, line: first.line ?? 1, column: first.column ?? 1 };
      out.push({ kind: 'file', name: file.file, source, events: null, tools: null, diagnostics: whole.map((p) => p.diagnostic) });
      continue;
    }
    // A setting or an include left out could have changed any event's answer.
    for (const [name, placed] of breakage.parts.get(file.file) ?? []) {
      const first = placed[0].diagnostic;
      out.push({ kind: 'part', name, source: { file: file.file, line: first.line ?? 1, column: first.column ?? 1 }, events: null, tools: null, diagnostics: placed.map((p) => p.diagnostic) });
    }
    const rules = [...(breakage.rules.get(file.file) ?? new Map<number, PlacedDiagnostic[]>())].sort(([a], [b]) => a - b);
    for (const [index, placed] of rules) out.push(brokenRule(file, index, placed));
  }
  return out;
}

function brokenRule(file: LoadedFile, index: number, placed: PlacedDiagnostic[]): BrokenRule {
  const raw = isObject(file.doc) && Array.isArray(file.doc.rules) ? (file.doc.rules[index] as unknown) : undefined;
  const rule = isObject(raw) ? raw : {};
  const inside = (key: string) => placed.some((p) => within(p.pointer, toPointer(['rules', index, key])));
  return {
    kind: 'rule',
    name: typeof rule.id === 'string' ? rule.id : `rules[${index}]`,
    source: file.map.locate(toPointer(['rules', index])),
    events: inside('on') ? null : readableEvents(rule.on),
    tools: inside('tools') ? null : readableTools(rule.tools),
    diagnostics: placed.map((p) => p.diagnostic),
  };
}

/** `on` as written when every entry is an event the runner knows; null otherwise (it could mean any event). */
function readableEvents(on: unknown): string[] | null {
  const list = typeof on === 'string' ? [on] : Array.isArray(on) ? on : null;
  if (!list || list.length === 0 || !list.every((e) => typeof e === 'string' && KNOWN_EVENTS.has(e))) return null;
  return [...new Set(list as string[])];
}

/** `tools` as written when it is a name or list of names; null (any tool) otherwise. */
function readableTools(tools: unknown): BrokenRule['tools'] {
  const readable = typeof tools === 'string' || (Array.isArray(tools) && tools.every((t) => typeof t === 'string'));
  const compiled = readable ? compileTools(tools) : null;
  return compiled && compiled.names.length + compiled.patterns.length > 0 ? compiled : null;
}

function within(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}
