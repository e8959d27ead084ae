/**
 * What a lint check sees: every raw rule of every loaded file, in policy order, with its
 * compiled form when the policy compiled, and a way to turn a JSON pointer into a position.
 */
import type { ClaudeSettings } from './claude-settings';
import { toPointer } from '../load/source-map';
import type { TextSourceMap } from '../load/source-map';
import { OUTCOMES } from '../types';
import type { CompiledPolicy, CompiledRule, LoadedFile, Outcome, RawRule, SourceLocation } from '../types';

/** One rule as written, with the facts every check needs already normalized. */
export interface LintRule {
  id: string;
  file: LoadedFile;
  /** JSON pointer of the rule in its file, e.g. `/rules/3`. */
  pointer: string;
  raw: RawRule;
  /** `on`, as a list (an empty list when `on` is missing or not text). */
  events: string[];
  /** `tools` split into names (`Write|Edit` -> [Write, Edit]); null when absent. */
  tools: string[] | null;
  outcome: Outcome | null;
  message: string;
  compiled: CompiledRule | null;
}

export interface LintContext {
  files: readonly LoadedFile[];
  policy: CompiledPolicy | null;
  rules: readonly LintRule[];
  settings: ClaudeSettings | null;
  /** Name of the settings file(s) for messages, e.g. `.claude/settings.json`. */
  settingsFile: string;
  /** Each settings file read, on its own (settings is their merge). */
  settingsSources: readonly SettingsSource[];
  /** Lint was asked to check settings, whether or not a file was found. */
  settingsChecked: boolean;
  /** The project root, for `${CLAUDE_PROJECT_DIR}` in runner entries. */
  projectRoot: string | null;
  /** Whether a file exists (host I/O, injected; always true when not given). */
  exists(file: string): boolean;
  /** The coding agents other than Claude Code the project runs the runner under (policy init --host), with what would make each skip it. */
  hosts: readonly HostInUse[];
  /** Position of the value (or key) at `segments` inside the rule (`[]` = the rule itself). */
  at(rule: LintRule, segments: ReadonlyArray<string | number>, part?: 'key' | 'value'): SourceLocation;
  /** Position of character `offset` inside the string at `segments` (the string's start when unknown). */
  atOffset(rule: LintRule, segments: ReadonlyArray<string | number>, offset: number): SourceLocation;
}

/** A host the project is set up for, as the CLI found it. */
export interface HostInUse {
  host: 'codex' | 'gemini';
  /** Its configuration file, for messages (`.codex/config.toml`). */
  file: string;
  /** Why the host would skip the runner's hooks (init --check's reasons); [] when it would run them. */
  skipped: readonly string[];
}

/** One settings file as lint read it. */
export interface SettingsSource {
  file: string;
  settings: ClaudeSettings;
}

export interface LintOptions {
  settings?: ClaudeSettings | null;
  settingsFile?: string;
  settingsSources?: readonly SettingsSource[];
  settingsChecked?: boolean;
  projectRoot?: string;
  exists?: (file: string) => boolean;
  hosts?: readonly HostInUse[];
}

/**
 * Builds the context for the checks. Files are put in policy order: a file's includes
 * before the file itself, as the compiler orders rules.
 * @example createLintContext([file], null, {}).rules[0].events // ['PreToolUse']
 */
export function createLintContext(files: readonly LoadedFile[], policy: CompiledPolicy | null, options: LintOptions): LintContext {
  const rules: LintRule[] = [];
  for (const file of policyOrder(files)) {
    const list = isObject(file.doc) && Array.isArray(file.doc.rules) ? file.doc.rules : [];
    list.forEach((raw: unknown, i: number) => {
      if (isObject(raw)) rules.push(toLintRule(raw as unknown as RawRule, file, `/rules/${i}`, policy));
    });
  }
  return {
    files,
    policy,
    rules,
    settings: options.settings ?? null,
    settingsFile: options.settingsFile ?? '.claude/settings.json',
    settingsSources: options.settingsSources ?? [],
    settingsChecked: options.settingsChecked ?? false,
    projectRoot: options.projectRoot ?? null,
    exists: options.exists ?? (() => true),
    hosts: options.hosts ?? [],
    at: (rule, segments, part = 'value') => rule.file.map.locate(rule.pointer + toPointer(segments), part),
    atOffset: (rule, segments, offset) => {
      const map = rule.file.map as Partial<TextSourceMap>;
      const pointer = rule.pointer + toPointer(segments);
      return typeof map.locateIn === 'function' && offset >= 0 ? map.locateIn(pointer, offset) : rule.file.map.locate(pointer);
    },
  };
}

/**
 * Splits a `tools` value: `"Write|Edit"`, `"Write, Edit"` or a list.
 * @example splitNames('Write | Edit,Read') // ['Write', 'Edit', 'Read']
 */
export function splitNames(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const items = Array.isArray(value) ? value : [value];
  return items.flatMap((v) => (typeof v === 'string' ? v.split(/[|,]/) : [])).map((s) => s.trim()).filter((s) => s !== '');
}

/**
 * Where a tool name was written: inside its list item, or inside a `A|B` string.
 * @example toolAt(ctx, rule, 'Edit') // the position of "Edit" in `tools: Write|Edit`
 */
export function toolAt(ctx: LintContext, rule: LintRule, name: string): SourceLocation {
  const tools = rule.raw.tools;
  if (Array.isArray(tools)) {
    const i = tools.findIndex((t) => typeof t === 'string' && t.split(/[|,]/).map((s) => s.trim()).includes(name));
    if (i >= 0) return ctx.atOffset(rule, ['tools', i], tools[i].indexOf(name));
  }
  return ctx.atOffset(rule, ['tools'], typeof tools === 'string' ? tools.indexOf(name) : -1);
}

function toLintRule(raw: RawRule, file: LoadedFile, pointer: string, policy: CompiledPolicy | null): LintRule {
  const on = (raw as { on?: unknown }).on;
  const events = (Array.isArray(on) ? on : [on]).filter((e): e is string => typeof e === 'string');
  const outcome = OUTCOMES.find((o) => typeof raw[o] === 'string') ?? null;
  const id = typeof raw.id === 'string' ? raw.id : pointer;
  const compiled = policy?.rules.find((r) => r.id === id && r.source.file === file.file) ?? null;
  return {
    id,
    file,
    pointer,
    raw,
    events,
    tools: splitNames(raw.tools),
    outcome,
    message: outcome ? String(raw[outcome]) : '',
    compiled,
  };
}

function policyOrder(files: readonly LoadedFile[]): LoadedFile[] {
  const byName = new Map(files.map((f) => [f.file, f]));
  const seen = new Set<string>();
  const out: LoadedFile[] = [];
  const visit = (file: LoadedFile) => {
    if (seen.has(file.file)) return;
    seen.add(file.file);
    for (const inc of file.includes) {
      const child = byName.get(inc);
      if (child) visit(child);
    }
    out.push(file);
  };
  files.filter((f) => f.root).forEach(visit);
  files.forEach(visit);
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
