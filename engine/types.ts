/**
 * The data that flows through the engine's pipeline:
 * load (RawPolicy) -> validate -> compile (CompiledPolicy) -> evaluate (Decision) -> render (HookResponse).
 * Everything here is plain data; CompiledPolicy and Decision are JSON-serializable.
 */

/** A 1-based position in a source file. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export type Severity = 'error' | 'warning' | 'info';

/** One problem, whoever found it: the loader, the schema, lint, a test run or the runner. */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

/**
 * A diagnostic with what it is about, so that a build can tell what it breaks: one rule
 * (`/rules/2/...`: the rule is left out), the policy (`/settings`, `/agents`: nothing
 * runs), or the file (anything else: the file's rules are left out).
 */
export interface PlacedDiagnostic {
  diagnostic: Diagnostic;
  /** The file it is about; null for the policy as a whole (a root file that cannot be read). */
  file: string | null;
  /** JSON pointer into that file's document; '' for the document itself. */
  pointer: string;
}

// ---------------------------------------------------------------------------
// Raw policy: what users write, mirrored from YAML.

export type Outcome = 'deny' | 'ask' | 'allow' | 'block' | 'warn' | 'context';
/**
 * The outcome of a shell rule with `paths` when the command cannot be checked; 'ignore' =
 * the rule does not apply; 'sandbox' = the command runs in a sandbox whose writes the rule
 * judges afterwards (ask where there is no sandbox).
 */
export type UnparsableOutcome = 'deny' | 'ask' | 'allow' | 'ignore' | 'sandbox';
/** What a rule answers for input too large to check (settings.oversized). */
export type OversizedOutcome = Exclude<UnparsableOutcome, 'sandbox'>;
export const OUTCOMES: readonly Outcome[] = ['deny', 'ask', 'allow', 'block', 'warn', 'context'];
/**
 * What sent a UserPromptSubmit: a person typing ('user'), or Claude Code reporting a finished
 * background subagent ('task-notification': the prompt starts with `<task-notification>`).
 */
export type PromptKind = 'user' | 'task-notification';
export const PROMPT_KINDS: readonly PromptKind[] = ['user', 'task-notification'];

export interface RawPolicyDoc {
  version: 1;
  include?: string[];
  settings?: RawSettings;
  agents?: RawAgents;
  rules?: RawRule[];
}

export interface RawSettings {
  on_error?: 'open' | 'closed';
  bypass?: { env: string; values?: string[] };
  log?: {
    file?: string | false;
    /** `body`: the JSON to POST instead of the record, its strings templates over the decision. */
    webhook?: { url: string; timeout_ms?: number; headers?: Record<string, string>; allowed_env_vars?: string[]; body?: Record<string, unknown> };
    record?: Array<Outcome | 'none' | 'error' | 'bypass'>;
    /** Extra regular expressions redacted from decision-log records. */
    redact?: string[];
    /** OpenTelemetry export (docs/operations.md#opentelemetry); false: off even when OTEL_EXPORTER_OTLP_* is set. */
    otlp?: false | { endpoint?: string; headers?: Record<string, string>; allowed_env_vars?: string[]; timeout_ms?: number };
  };
  /** Overall deadline for one evaluation, in ms. */
  deadline_ms?: number;
  /** The project's memory store: where it lives, how long records stay, what is never recorded. */
  memory?: {
    store?: string | false; retention_days?: number; max_records?: number; privacy?: string[];
    /** Prose summaries of sessions by a model (docs/memory.md#prose-summaries-and-embeddings). */
    summarizer?: RawSummarizer;
    /** Record embeddings for search, from an OpenAI-compatible endpoint. */
    embeddings?: RawEmbeddings;
  };
}

/** `settings.memory.summarizer`: the headless CLI (`command`) or an endpoint (`url`). */
export interface RawSummarizer {
  command?: string;
  url?: string;
  api?: 'anthropic' | 'openai';
  model?: string;
  key_env?: string;
  timeout_ms?: number;
  max_prompt_chars?: number;
  max_tokens?: number;
  prompt?: string;
}

/** `settings.memory.embeddings`: an OpenAI-compatible embeddings endpoint. */
export interface RawEmbeddings {
  url: string;
  model: string;
  key_env?: string;
  timeout_ms?: number;
  min_similarity?: number;
}

export interface RawAgents {
  identity?: string[];
  strip_prefix?: string | string[];
  main?: string;
  roles?: Record<string, string[]>;
}

export interface RawLet {
  newest?: string;
  file?: string;
  expr?: string;
  /** Store-reading kinds: how many records of a kind, the last one, recent session summaries, a search, this session's summary or metrics. */
  count?: string;
  last?: string;
  summaries?: number;
  search?: string;
  summary?: 'session';
  metrics?: 'session';
  /** Which records `count` and `last` read (default session). */
  scope?: MemoryScope;
  since_minutes?: number;
  /** `last`: the oldest record instead of the newest. */
  first?: boolean;
  budget_tokens?: number;
  limit?: number;
  min_relevance?: number;
  extract?: string;
  /** Dotted path of a field when the file is JSON. */
  field?: string;
  max_bytes?: number;
  optional?: boolean;
}

/** One `record` action as written: templated kind, text and fields; importance a number or a template. */
export interface RawRecord {
  kind: string;
  text: string;
  importance?: number | string;
  fields?: Record<string, string>;
}

export interface RawRequirement {
  file: string;
  min_bytes?: number;
}

export interface RawRule {
  id: string;
  description?: string;
  on: string | string[];
  tools?: string | string[];
  prompts?: PromptKind | PromptKind[];
  agents?: string | string[];
  match?: Record<string, string | string[]>;
  paths?: { allow?: string[]; deny?: string[]; except?: string[] };
  command?: string | string[];
  when?: string;
  only_if_exists?: string;
  let?: Record<string, RawLet>;
  require?: RawRequirement[];
  log?: boolean;
  /** Observations the rule stores when it fires, beside or instead of an outcome. */
  record?: RawRecord | RawRecord[];
  /** Once the rule fires with deny or block, later rules are not evaluated. */
  final?: boolean;
  /** What a Bash/PowerShell rule with `paths` does when the command's written paths cannot be determined (default ask). */
  unparsable?: UnparsableOutcome;
  deny?: string;
  ask?: string;
  allow?: string;
  block?: string;
  warn?: string;
  context?: string;
}

/** Maps a JSON pointer into a loaded document back to where it was written. */
export interface SourceMap {
  file: string;
  /** `part: 'key'` points at the key of a mapping entry, `'value'` (default) at its value. */
  locate(pointer: string, part?: 'key' | 'value'): SourceLocation;
}

/** One loaded file, before validation. */
export interface LoadedFile {
  file: string;
  hash: string;
  doc: unknown;
  map: SourceMap;
  /** Name of the shipped pack when the file came from `include: [pack-name]`. */
  pack?: string;
  /** Resolved paths of the files this one includes, in order. */
  includes: string[];
  /**
   * The fast form of expressions the file holds, by text, when they were parsed ahead (a
   * shipped pack's, at build time: load/parse-snapshot.ts); the compiler then does not
   * parse them again. Only expressions that parse are listed.
   */
  expressions?: Readonly<Record<string, FastExpression | null>>;
  /** With `expressions`: the regex literals of those that hold any, as compile/expression-regexes.ts marks them. */
  expressionRegexes?: Readonly<Record<string, RegexSource[]>>;
  /**
   * True when the file's text is known to validate without a diagnostic (a shipped pack,
   * validated at build time by the same build: load/parse-snapshot.ts); it is then not
   * validated again.
   */
  valid?: true;
  /** True for a file named on the command line / by config discovery (not included). */
  root: boolean;
}

// ---------------------------------------------------------------------------
// Compiled policy: what runs. Serializable; regular expressions are kept as sources.

export interface CompiledPolicy {
  format: 1;
  /** Every file the policy was built from, with a content hash, for cache validation. */
  sources: Array<{ file: string; hash: string }>;
  settings: CompiledSettings;
  agents: CompiledAgents;
  rules: CompiledRule[];
  index: RuleIndex;
  /**
   * Rules and files left out because they are broken (absent when none): reported on
   * every event, and on_error decides the events they could have judged.
   */
  broken?: BrokenRule[];
}

/**
 * A rule, or a whole file, left out of a compiled policy because it has errors, with the
 * events and tools it could have judged. Plain data: it is cached with the policy.
 */
export interface BrokenRule {
  /**
   * 'rule': one rule; 'file': every rule of a file that cannot be read as a whole; 'part':
   * one setting or include entry (left out alone: its default applies, or the file it names is not loaded).
   */
  kind: 'rule' | 'file' | 'part';
  /** The rule's id (`rules[2]` when the id cannot be read); the file's path for kind 'file'; `settings.on_eror` or `include securty-guard` for a part. */
  name: string;
  /** Where the rule starts; the file's first error for kind 'file'. */
  source: SourceLocation;
  /** The events it could have judged; null: any event (`on` cannot be read, or a whole file). */
  events: string[] | null;
  /** The tools it could have judged; null: any tool (no `tools`, or they cannot be read). */
  tools: { names: string[]; patterns: RegexSource[] } | null;
  /** The errors that broke it, as lint reports them. */
  diagnostics: Diagnostic[];
  /** Reported only at the events it could have judged (a rule set aside for a host: engine/hosts/identity.ts), not at every event. */
  onlyWhereItJudges?: true;
}

export interface CompiledSettings {
  onError: 'open' | 'closed';
  bypasses: CompiledBypass[];
  log: CompiledLog;
  deadlineMs: number;
  /** The top file's self_protection openings (optional so older artefacts stay valid). */
  selfProtection?: { except: string[]; mainSession: string[] };
  /** The top file's `policy_config: allow`: $POLICY_CONFIG may replace this policy (absent: it may not). */
  policyConfig?: 'allow';
  /** `known_commands`: commands trusted to write nothing unseen, each as its first words (absent when none). */
  knownCommands?: string[][];
  /** `sandbox.keep`: what a sandboxed command may always write (absent: DEFAULT_SANDBOX_KEEP). */
  sandboxKeep?: string[];
  /** `oversized`: what a deny/ask/block rule answers when the event is too large to check in time (absent: ask). */
  oversized?: OversizedOutcome;
  /** `max_input_bytes`: the longest command or path the runner analyses (absent: 16384). */
  maxInputBytes?: number;
  /** `memory`: the store (dir null = off), its retention, and the privacy globs records must not match (absent in artefacts from before it). */
  memory?: CompiledMemorySettings;
}

export interface CompiledMemorySettings {
  /** Project-relative or absolute folder of the store; null when `store: false`. */
  dir: string | null;
  retentionDays: number;
  maxRecords: number;
  /** Globs (`*` any characters, case-insensitive, whole text): a record whose text or a field matches one is dropped. */
  privacy: string[];
  /** Who writes prose summaries of a session (absent: only the deterministic ones). A root file's choice only. */
  summarizer?: CompiledSummarizer;
  /** Where records and search queries are embedded (absent: search is full text only). A root file's choice only. */
  embeddings?: CompiledEmbeddings;
}

/** What every summarizer has: the model, how long it may take, how much of the session it is shown, and what it is asked. */
interface CompiledSummarizerBase {
  model: string;
  timeoutMs: number;
  maxPromptChars: number;
  /** The instruction before the observations (absent: the seed's). */
  prompt?: string;
}

/** `claude -p` (or the CLI at `command`), started without hooks, outside the project. */
export interface CompiledCliSummarizer extends CompiledSummarizerBase {
  via: 'command';
  /** A name looked up on PATH, or a path (project-relative or absolute). */
  command: string;
}

/** An Anthropic Messages (`/v1/messages`) or OpenAI Chat Completions (`/v1/chat/completions`) endpoint. */
export interface CompiledApiSummarizer extends CompiledSummarizerBase {
  via: 'api';
  api: 'anthropic' | 'openai';
  url: string;
  /** The environment variable that holds the key; never the key itself. */
  keyEnv: string | null;
  maxTokens: number;
}

export type CompiledSummarizer = CompiledCliSummarizer | CompiledApiSummarizer;

/** An OpenAI-compatible embeddings endpoint (`/v1/embeddings`). */
export interface CompiledEmbeddings {
  url: string;
  model: string;
  keyEnv: string | null;
  /** How long a search waits for its query's embedding before ranking by full text alone. */
  timeoutMs: number;
  /** A cosine similarity below this counts as none. */
  minSimilarity: number;
}

export interface CompiledBypass {
  env: string;
  values: string[];
  source: SourceLocation;
}

/** A JSON value, as a webhook body holds it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface CompiledLog {
  /** Project-relative or absolute path of the JSONL file; null when no file log. */
  file: string | null;
  /**
   * `body`: what is POSTed instead of the record (absent: the record), see render/webhook-body.ts.
   * `allowedEnvVars`: the variables `$NAME`/`${NAME}` in header values are read from when
   * the record is sent (absent: none; render/header-env.ts).
   */
  webhook: { url: string; timeoutMs: number; headers: Record<string, string>; allowedEnvVars?: string[]; body?: { [key: string]: JsonValue } } | null;
  record: string[];
  /** Extra redaction patterns from every file (optional so older artefacts stay valid). */
  redact?: string[];
  /** `log.otlp`: absent when no file says it (the OTEL_EXPORTER_OTLP_* variables decide), false when off. */
  otlp?: CompiledOtlp | false;
}

/** `log.otlp` compiled: header values keep their `$NAME` references (filled in by the exporter). */
export interface CompiledOtlp {
  /** The collector's base URL (/v1/logs, /v1/traces appended); null: from the variables. */
  endpoint: string | null;
  headers: Record<string, string>;
  /** The variables header values may read (render/header-env.ts). */
  allowedEnvVars: string[];
  /** null: OTEL_EXPORTER_OTLP_TIMEOUT, else 10 s (decided by the runner). */
  timeoutMs: number | null;
}

export interface CompiledAgents {
  identity: string[];
  stripPrefixes: string[];
  main: string | null;
  roles: Record<string, string[]>;
  /** Every agent name the policy mentions (role members, main, names in rules). */
  known: string[];
}

/** A regular expression kept as source + flags. */
export interface RegexSource {
  source: string;
  flags: string;
  /**
   * Set by the compiler: true when the pattern may backtrack catastrophically. A policy
   * expression then runs only under a watchdog (absent: classified when first used); a
   * compiler-built pattern (a glob, a `*` wildcard) runs its `linear` program, or the
   * watchdog when it has none (absent: at most quadratic, matched natively).
   */
  guard?: boolean;
  /** Set by the compiler on a guarded glob or wildcard: the program that matches it in linear time (compile/linear-program.ts). */
  linear?: LinearProgram;
  /** Set by the compiler: text every match contains (lower-cased under `i`); a text without it cannot match. */
  literal?: string;
  /** Set by the compiler instead of `literal` when stronger: every match contains one of these. */
  anyOf?: string[];
  /** Set by the compiler: every match contains each of these too (lower-cased under `i`). */
  allOf?: string[];
  /**
   * Set by the compiler on a path glob: its literal start and longest literal
   * (compile/glob-literals.ts), so that a runner does not read them from the source at
   * every event. Absent (a hand-built glob): the regex alone decides.
   */
  globLiterals?: [prefix: string, required: string];
}

/**
 * A pattern as a position automaton the runner follows in linear time
 * (evaluate/linear-match.ts). Instructions are three numbers each: CHAR atom next, SPLIT
 * one other, CHECK check next, MATCH (compile/linear-program.ts).
 */
export interface LinearProgram {
  start: number;
  code: number[];
  /** One-character tests, `^(?:...)$` with their flags; a third element 1: a modifier decides its case folding. */
  atoms: Array<[source: string, flags: string] | [source: string, flags: string, caseFixed: 1]>;
  /** Zero-width checks (`^`, `\b`, a lookaround), sticky, tested at a position. */
  checks: Array<[source: string, flags: string] | [source: string, flags: string, caseFixed: 1]>;
  /** Steps by code point (the `u` or `v` flag), else by UTF-16 unit. */
  unicode?: true;
}

export type LetKind = 'newest' | 'file' | 'expr' | MemoryLetKind;
/** The lets that read the memory store (through Facts.memory). */
export type MemoryLetKind = 'count' | 'last' | 'summaries' | 'search' | 'summary' | 'metrics';

export interface CompiledLet {
  name: string;
  kind: LetKind;
  /**
   * Templated glob/path, the jsonata expression for 'expr', the record kind for 'count' and
   * 'last', the query template for 'search', 'session' for 'summary' and 'metrics', the
   * limit (as text) for 'summaries'.
   */
  target: string;
  extract: RegexSource | null;
  field: string | null;
  maxBytes: number;
  optional: boolean;
  /** The store-reading kinds' options (absent for the others). */
  memory?: CompiledMemoryQuery;
  /** An 'expr' target in the subset the runner evaluates without JSONata; absent otherwise. */
  exprFast?: FastExpression;
}

/**
 * A JSONata expression of the subset evaluate/fast-expression.ts evaluates as JSONata
 * does, built by the compiler from JSONata's own parse (compile/fast-expression.ts):
 * literals, `$name`, a field path `a.b.c`, a call of one of hookpolicy's functions,
 * `=`, `!=`, `and`, `or`.
 */
export type FastExpression =
  | { k: 'value'; v: string | number | boolean | null }
  | { k: 'var'; name: string }
  | { k: 'path'; steps: string[] }
  | { k: 'call'; fn: string; args: FastExpression[] }
  | { k: '=' | '!=' | 'and' | 'or'; l: FastExpression; r: FastExpression };

export interface CompiledMemoryQuery {
  scope: MemoryScope;
  sinceMinutes?: number;
  first?: boolean;
  limit?: number;
  budgetTokens?: number;
  minRelevance?: number;
}

/** A rule's `record` action, compiled: templates kept as text, a static importance as a number. */
export interface CompiledRecord {
  kind: string;
  text: string;
  /** A number in [0, 1], or a template that renders to one. */
  importance: number | string;
  fields: Record<string, string>;
}

export interface CompiledRequirement {
  /** Templated project-relative path or glob. */
  file: string;
  minBytes: number;
}

export interface CompiledPathFilter {
  allow: RegexSource[] | null;
  deny: RegexSource[] | null;
  except: RegexSource[] | null;
  /** The globs as written, for messages and explain. */
  globs: { allow?: string[]; deny?: string[]; except?: string[] };
}

export interface CompiledRule {
  id: string;
  description?: string;
  source: SourceLocation;
  events: string[];
  /** Tool filter: exact names and wildcard patterns; null = any tool (or not a tool event). */
  tools: { names: string[]; patterns: RegexSource[] } | null;
  /** The kinds of UserPromptSubmit prompt the rule applies to; null = any event, any prompt. A rule with them applies to UserPromptSubmit only. */
  prompts: PromptKind[] | null;
  /** Resolved agent names (roles expanded); null = any agent, including none. */
  agents: string[] | null;
  match: Array<{ field: string; patterns: RegexSource[] }>;
  paths: CompiledPathFilter | null;
  command: RegexSource[] | null;
  when: string | null;
  /** `when` in the subset the runner evaluates without JSONata (evaluate/fast-expression.ts); absent otherwise. */
  whenFast?: FastExpression;
  onlyIfExists: string | null;
  lets: CompiledLet[];
  requires: CompiledRequirement[];
  /** null: the rule only records (it has `record` and no outcome). */
  outcome: Outcome | null;
  message: string;
  /** Indices into settings.bypasses of the switches that turn this rule off: its own file's and every includer's. */
  bypasses: number[];
  log: boolean;
  /** For shell tools under `paths`: outcome when written paths cannot be determined; missing = 'ask'. */
  unparsable?: UnparsableOutcome;
  /** Built-in rules only: 'main' = the main session alone (no agent identity), 'agents' = every other agent. */
  actors?: 'main' | 'agents';
  /**
   * Built-in rules only: a shell command whose writes cannot be known, but whose words name
   * a path one of `paths.deny[i]` for i in `deny` catches (shell/named-paths.ts; the
   * guarded files, not the folders above them), gets `outcome` instead of `unparsable`.
   */
  unparsableNaming?: { deny: number[]; outcome: 'ask' };
  /**
   * Built-in rules only: the rule judges the events that reach the runner for other rules,
   * and `policy init` routes none for it (a Read the team routes anyway is judged; routing
   * every Read to the runner for it alone would cost every Read a hook).
   */
  ridesAlong?: true;
  /**
   * Built-in rules only: what the rule guards, as paths, so that a path is also judged by
   * which file it is (evaluate/guard-identity.ts): a hard link of a guarded file, the file a
   * guarded name links to, a path inside a guarded folder reached by another name. The
   * second names a shell command makes (a hard link, a symlink, a copy or move of a link)
   * count as writes of what they name for such a rule.
   */
  identity?: GuardedPaths;
  /** What the rule records when it fires (absent when it records nothing). */
  records?: CompiledRecord[];
  /** `final: true`: once the rule fires with deny or block, later rules are not evaluated. */
  final?: true;
  /** `when` names a let (`$name`): lets are computed before `when`, and bound in it. */
  letsFirst?: true;
  /** The regex literals of `when` and the `expr` lets, with `guard` (absent: none, or a shipped pack's, classified when first used). */
  regexes?: RegexSource[];
}

/** The guard's own files and folders as plain paths: project-relative, or absolute outside the project (self-protection.ts, ownPaths). */
export interface GuardedPaths {
  files: string[];
  /** Every path inside one of these is guarded. */
  folders: string[];
  /** Folders that hold a guarded file: removing or moving one writes it. */
  holders: string[];
}

/** Which rules can apply to an event and tool, in rule order, without scanning all rules. */
export interface RuleIndex {
  byEvent: Record<string, {
    byTool: Record<string, number[]>;
    /** Every rule with a tool pattern. */
    patterned: number[];
    /**
     * The same rules by the literal text every tool name their patterns match starts with
     * (`mcp__github__` for `mcp__github__*`; '' when unsure). Missing in indexes built
     * before it existed: `patterned` then serves.
     */
    byPrefix?: Record<string, number[]>;
    anyTool: number[];
  }>;
}

// ---------------------------------------------------------------------------
// Evaluation.

/** A hook event as received on stdin. Parsing is tolerant: only hook_event_name is required. */
export interface HookEvent {
  hook_event_name: string;
  [field: string]: unknown;
}

export interface FileFact {
  /** Project-relative POSIX path (or absolute when outside the project). */
  path: string;
  size: number;
  mtimeMs: number;
}

/** One line of the decision log (written by engine/host/decision-log.ts, read by the log's readers and exporters). */
export interface DecisionRecord {
  time: string;
  /** The hash chain: SHA-256 (hex) of the log's line before this one, set when the line is appended (docs/commands/log.md). */
  prev?: string;
  session_id: string | null;
  event: string;
  tool: string | null;
  agent: string | null;
  outcome: Decision['outcome'];
  /** The rules that decided, or every rule that fired when none decided. */
  rules: string[];
  reason: string | null;
  paths: string[];
  /** The Bash command (or another tool's main input), redacted and cut (logged-command.ts). */
  command?: string;
  contexts?: string[];
  warnings?: string[];
  bypass?: Decision['bypass'];
  errors?: string[];
  /** The files the policy was built from. */
  policy: string[];
  /** The runner's own time for the event, in ms (stdin read to answer; node's start-up not included). */
  duration_ms?: number;
  /** The runner let the event through without judging it (on_error: open; see `errors`). */
  fail_open?: true;
}

/** A file as the file system knows it (Facts.identity). */
export interface FileIdentity {
  /** Device and inode, as one string (`"2049:131"`): equal for every name of one file. */
  id: string;
  /** How many names (hard links) the file has. */
  links: number;
  kind: 'file' | 'dir' | 'other';
}

/**
 * What the evaluator may ask of the world. The host layer implements it with the file
 * system; tests implement it with in-memory data. All paths are project-relative POSIX.
 */
export interface Facts {
  /** Files matching a project-relative glob, bounded in number. */
  findFiles(glob: string): FileFact[];
  /** 'file', 'dir' or null when the path does not exist. */
  stat(path: string): 'file' | 'dir' | null;
  /**
   * The names in a folder (project-relative or absolute path), or null when it is no
   * folder or cannot be read: how a Bash word like `.claude/*` is expanded, as the shell will.
   */
  listFolder?(path: string): string[] | null;
  /** At most maxBytes of a file as UTF-8, or null when it cannot be read. */
  readText(path: string, maxBytes: number): string | null;
  /**
   * Where a path really leads once symlinks are followed (the longest existing prefix is
   * resolved, the rest appended): project-relative or absolute POSIX; null when unknown.
   */
  realpath?(path: string): string | null;
  /**
   * Where a path leads, link by link: its end as `realpath` gives it (a dangling link leads
   * to its target: writing through it creates that file) and every place a link pointed to
   * on the way; null when unknown (a loop). Preferred over `realpath` when present.
   */
  resolve?(path: string): { real: string; via: string[] } | null;
  /** The project's file system: `windows` when Windows file-name rules apply (8.3 short names). */
  volume?(): { windows: boolean };
  /**
   * Which file a path is, as a write through it would open it (links followed): its
   * identity (device and inode), its number of names (hard links) and kind; null when it
   * does not exist or the system gives no identity. Two paths with the same `id` are the
   * same file, whatever their names.
   */
  identity?(path: string): FileIdentity | null;
  /** The text of the symlink at `path` (the link itself, not followed), or null when it is no symlink. */
  readLink?(path: string): string | null;
  /** The project's memory store; absent when there is none (store-reading lets then fail). */
  memory?: MemoryFacts;
}

// ---------------------------------------------------------------------------
// Memory: what `record` actions store and what store-reading lets ask for.

/** One observation a rule's `record` action stores: rendered, and past the privacy filter. */
export interface RecordDraft {
  /** The rule that recorded it. */
  rule: string;
  kind: string;
  /** 0 to 1. */
  importance: number;
  text: string;
  /** Any other templated field the rule adds. */
  fields: Record<string, string>;
}

/** A stored record as the store's readers return it. */
export interface MemoryRecord extends RecordDraft {
  /** The store's id: stable, shown by `policy memory` and the slash command. */
  id: number;
  /** ISO time it was recorded. */
  at: string;
  session: string | null;
  agent: string | null;
  event: string;
}

/** Which records a counter or a `last` reads: this session's, this agent's in this session, or the whole project's. */
export type MemoryScope = 'session' | 'agent' | 'project';

/** Who is asking: the event's session and agent (null for the main session). */
export interface MemoryWho {
  session: string | null;
  agent: string | null;
}

/**
 * What store-reading lets may ask of the project's memory store. Synchronous: the host
 * reads its index. Kinds are exact names; '*' means any kind.
 */
export interface MemoryFacts {
  /** How many records of `kind` in the scope, recorded at or after `sinceMs` (epoch ms) when given. */
  count(kind: string, scope: MemoryScope, who: MemoryWho, sinceMs?: number): number;
  /** The newest (or with `first`, the oldest) record of `kind` in the scope, or null. */
  last(kind: string, scope: MemoryScope, who: MemoryWho, first?: boolean): MemoryRecord | null;
  /** Records of kind `summary`, newest first, from sessions other than `excludeSession`, one (the newest) per session, at most `limit`. */
  summaries(limit: number, excludeSession: string | null): MemoryRecord[];
  /** Full-text search over every record's text, best first, relevance in (0, 1]. */
  search(query: string, limit: number): Array<{ record: MemoryRecord; relevance: number }>;
  /** Every record of one session, oldest first. */
  sessionRecords(session: string): MemoryRecord[];
  /**
   * How the last search ranked, when embeddings are configured: `full text and embeddings`,
   * or `full text only: <why>` (the endpoint did not answer in time, ...). Absent or null: full text.
   */
  searchNote?(): string | null;
}

export interface EvaluationContext {
  /** Absolute POSIX path of the project root. */
  projectRoot: string;
  env: Readonly<Record<string, string | undefined>>;
  facts: Facts;
  /** Milliseconds clock for deadline_ms; without it no deadline is enforced. */
  now?: () => number;
  /**
   * The size of the event as it arrived (stdin's length): a large event is evaluated under
   * a wall-clock watchdog of deadline_ms (needs `now`).
   */
  inputBytes?: number;
  /**
   * false: the caller does not read the decision's trace (the runner, the policy server),
   * which is then left empty. On a 1,000-rule policy, tracing the hundreds of rules a Write
   * meets was the largest part of the evaluation's own time.
   */
  trace?: boolean;
  /**
   * Runs a Bash command in the sandbox: the command line that does it (the launcher with
   * the original command), or null where there is no sandbox (then the rules ask). `rules`
   * are the rules whose paths judge what it writes. Absent: no sandbox.
   */
  sandbox?: (command: string, event: HookEvent, rules: readonly string[]) => string | null;
}

export interface RuleHit {
  id: string;
  outcome: Outcome;
  message: string;
  source: SourceLocation;
  /** The paths that made a `paths` filter match, when it has one. */
  paths?: string[];
  /** An ask of `unparsable: sandbox`: the command may run in a sandbox instead (engine/evaluate/sandbox.ts). */
  sandbox?: true;
}

export interface RequirementCheck {
  file: string;
  minBytes: number;
  found: FileFact | null;
  ok: boolean;
}

export type RuleStatus = 'fired' | 'not-matched' | 'bypassed' | 'error';

export interface RuleTrace {
  id: string;
  source: SourceLocation;
  status: RuleStatus;
  /** For not-matched: the first condition that failed and why. */
  failed?: { condition: string; detail: string };
  requirements?: RequirementCheck[];
  values?: Record<string, string>;
  error?: Diagnostic;
  /** How many of the rule's records the privacy filter dropped (absent when none). */
  dropped?: number;
}

export type FinalOutcome = 'deny' | 'ask' | 'allow' | 'block' | 'none';

export interface Decision {
  event: string;
  agent: string | null;
  tool: string | null;
  outcome: FinalOutcome;
  /** Messages of the rules that decided the outcome, joined. */
  reason: string | null;
  /** Rules whose outcome is the final outcome. */
  decidedBy: RuleHit[];
  /** Every rule that fired, in rule order. */
  hits: RuleHit[];
  contexts: string[];
  warnings: string[];
  /** Every rule considered, in rule order. */
  trace: RuleTrace[];
  bypass: { env: string; value: string; rules: string[] } | null;
  errors: Diagnostic[];
  /**
   * Every path the call touches, normalized (for a shell command, every file it writes that
   * can be known), whether or not a rule matched it: what the decision log records.
   */
  paths?: string[];
  /**
   * The policy's broken rules (CompiledPolicy.broken) as this event meets them; their
   * diagnostics are in `errors` too. `covers`: the rule could have judged this event, so
   * on_error decides it; otherwise the valid rules decided alone. Absent when none.
   */
  broken?: BrokenRuleReport[];
  /** What the rules' `record` actions store, in rule order, after the privacy filter (absent when none). */
  records?: RecordDraft[];
  /** How many records the privacy filter dropped (absent when none). */
  droppedRecords?: number;
  /**
   * The command runs in a sandbox instead of being asked about (`unparsable: sandbox`):
   * the rules that asked for it, their messages, and the tool input that replaces the
   * call's (PreToolUse `updatedInput`: every field kept, the command wrapped). Absent when
   * not sandboxed.
   */
  sandbox?: { rules: string[]; reason: string; input: Record<string, unknown> };
}

/** A broken rule as one event meets it. */
export interface BrokenRuleReport {
  kind: BrokenRule['kind'];
  name: string;
  covers: boolean;
  diagnostics: Diagnostic[];
}

// ---------------------------------------------------------------------------
// Rendering.

/** What the runner writes back to Claude Code. */
export interface HookResponse {
  stdout: string;
  stderr: string;
  exitCode: 0 | 2;
}
