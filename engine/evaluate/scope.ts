/**
 * What the evaluator knows about one event, computed once and shared by every rule:
 * event name, tool, agent, and (lazily) the prompt's kind, the touched paths and the
 * guarded facts.
 */
import { EXPRESSION_FUNCTIONS } from './expression-functions';
import type { EvaluationContext, Facts, FileFact, GuardedPaths, HookEvent, MemoryFacts, MemoryWho, PromptKind, OversizedOutcome } from '../types';
import { whoOf } from '../memory/who';
import { getField } from './fields';
import { DEFAULT_MAX_INPUT_BYTES, oversizedBytes } from './oversized';
import { GuardIdentity } from './guard-identity';
import { pathView, type PathView } from './path-views';
import { UnsafeRegexError } from './regex';
import { absolutePath, rawTouchedPaths, touchedPaths } from './paths';
import { namedInText } from './shell/named-paths';
import type * as ShellWritesModule from './shell/writes';

/** Tools whose input is a shell command; under `paths`, they touch the files the command writes. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(['Bash', 'PowerShell']);

/** A place that means a descriptor or folder of the process that opens it, not a file of its own. */
const DESCRIPTOR_LINK = /^\/(?:dev\/(?:fd(?:\/|$)|std(?:in|out|err)$)|proc\/)/;

/** How Claude Code opens the prompt it sends when a background subagent finishes. */
const TASK_NOTIFICATION = '<task-notification>';

/**
 * The kind of a UserPromptSubmit prompt: 'task-notification' when, after leading
 * whitespace, it starts with `<task-notification>`; else 'user'; null when it is no string.
 * Claude Code sends both through the same event, with no field that tells them apart.
 * @example promptKind('  <task-notification>\n<task-id>a1</task-id>') // 'task-notification'
 */
export function promptKind(prompt: unknown): PromptKind | null {
  if (typeof prompt !== 'string') return null;
  return prompt.trimStart().startsWith(TASK_NOTIFICATION) ? 'task-notification' : 'user';
}

/** What a shell command writes, judged like any touched path. */
export interface ShellTouched {
  views: PathView[];
  /** What it gives a second name (a hard link's source, where a symlink it makes or moves leads: ShellWrites.linked): writes for a rule that guards by identity. */
  linked: PathView[];
  /** Why the written paths cannot all be known; null when they can. */
  unchecked: string | null;
  /** What the commands whose writes cannot be known name in their words (absolute paths), looked at only by a rule that asks about them. */
  named: string[];
}

/** A Facts call that threw; reported as a `fact-error` diagnostic on the rule. */
export class FactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FactError';
  }
}

export class EventScope {
  readonly eventName: string;
  readonly tool: string | null;
  private touchedCache: string[] | null = null;
  private viewsCache: PathView[] | null = null;
  private shellCache: ShellTouched | null = null;
  private shellNamedCache: PathView[] | null = null;
  private factsCache: Facts | null = null;
  private bindingsCache: Record<string, unknown> | null = null;
  private promptKindCache: PromptKind | null | undefined;
  private windowsCache: boolean | undefined;
  /** The policy's `known_commands` (settings), for the shell analysis. */
  knownCommands: readonly (readonly string[])[] | undefined;
  /** The policy's `max_input_bytes`: a longer command or path is not analysed. */
  maxInputBytes = DEFAULT_MAX_INPUT_BYTES;
  /** The policy's `oversized`: what a deny/ask/block rule answers when it cannot check the input. */
  oversizedSetting: OversizedOutcome = 'ask';
  private oversizedCache: Array<string | null | undefined> = [undefined, undefined];
  /** The policy's `memory.privacy` globs: a record matching one is dropped. */
  privacy: readonly string[] = [];
  /** What the rules that guard by identity guard for this event's tool (identityGuardFor); null: paths are judged by name. */
  guarded: GuardedPaths | null = null;
  private identityCache: GuardIdentity | null = null;

  /** Whether the caller reads the decision's trace (ctx.trace): if not, a failed condition's text is never made. */
  readonly traced: boolean;

  constructor(
    readonly event: HookEvent,
    readonly agent: string | null,
    readonly ctx: EvaluationContext,
    /** The policy's deadline_ms, the time budget of each expression (0 = none). */
    readonly deadlineMs = 0,
    /** The event names no agent in any identity field (built-in rules' `actors`). */
    readonly mainSession = agent === null,
  ) {
    this.eventName = typeof event.hook_event_name === 'string' ? event.hook_event_name : '';
    this.tool = typeof event.tool_name === 'string' ? event.tool_name : null;
    this.traced = ctx.trace !== false;
  }

  /** The kind of the event's prompt (computed on first use); null when it has no prompt. */
  get promptKind(): PromptKind | null {
    if (this.promptKindCache === undefined) this.promptKindCache = promptKind(this.event.prompt);
    return this.promptKindCache;
  }

  /** The normalized paths the tool touches (computed on first use). */
  get touched(): string[] {
    return (this.touchedCache ??= touchedPaths(this.event, this.ctx.projectRoot));
  }

  /** Every reading of each touched path (as written, resolved through symlinks...), for `paths` filters; none for a path too long to analyse. */
  get touchedViews(): PathView[] {
    if (this.viewsCache) return this.viewsCache;
    if (this.oversizedInput(false) !== null) return (this.viewsCache = []);
    return (this.viewsCache = rawTouchedPaths(this.event, this.ctx.projectRoot).map((p) => this.view(p.raw, p.cwd)));
  }

  /**
   * Why the call's input is too large to analyse (the shell command when `shell`, else its
   * paths): longer than `max_input_bytes`; null when it is not. Checked before any parsing.
   * @example scope.oversizedInput(true) // 'the Bash command is 120000 bytes, more than max_input_bytes (16384)'
   */
  oversizedInput(shell: boolean): string | null {
    const slot = shell ? 0 : 1;
    const cached = this.oversizedCache[slot];
    if (cached !== undefined) return cached;
    const limit = this.maxInputBytes;
    let why: string | null = null;
    if (shell) {
      const command = getField(this.event, 'tool_input.command');
      const bytes = typeof command === 'string' ? oversizedBytes(command, limit) : null;
      if (bytes !== null) why = `the ${this.tool ?? 'shell'} command is ${bytes} bytes, more than max_input_bytes (${limit})`;
    } else {
      for (const p of rawTouchedPaths(this.event, this.ctx.projectRoot)) {
        const bytes = oversizedBytes(p.raw, limit);
        if (bytes !== null) {
          why = `a path of this ${this.tool ?? 'tool'} call is ${bytes} bytes, more than max_input_bytes (${limit})`;
          break;
        }
      }
    }
    return (this.oversizedCache[slot] = why);
  }

  /** The files the event's shell command writes (computed on first use; parses only when needed). */
  get shellTouched(): ShellTouched {
    if (this.shellCache) return this.shellCache;
    const root = this.ctx.projectRoot;
    const cwd = this.commandCwd;
    const command = getField(this.event, 'tool_input.command');
    if (typeof command !== 'string') return (this.shellCache = { views: [], linked: [], unchecked: this.tool === 'PowerShell' ? 'PowerShell commands are not parsed' : null, named: [] });
    // Never parsed beyond max_input_bytes (the decision log asks for the written paths too).
    const tooLarge = this.oversizedInput(true);
    if (tooLarge !== null) return (this.shellCache = { views: [], linked: [], unchecked: tooLarge, named: [] });
    if (this.tool === 'PowerShell') return (this.shellCache = { views: [], linked: [], unchecked: 'PowerShell commands are not parsed', named: namedInText(command).map((p) => absolutePath(p, cwd)) });
    const facts = this.facts;
    const home = this.ctx.env.HOME;
    const writes = loadShellWrites().shellWrites(command, {
      cwd, projectRoot: root, ...(home ? { home } : {}), isFolder: (p) => facts.stat(p) === 'dir', knownCommands: this.knownCommands,
      ...(facts.listFolder ? { listFolder: (p: string) => facts.listFolder?.(p) ?? null } : {}),
      ...(facts.readLink ? { readLink: (p: string) => facts.readLink?.(p) ?? null } : {}),
    });
    const views = writes.paths.map((p) => this.view(p.absolute, cwd));
    const linked = writes.linked.map((p) => this.view(p.absolute, cwd));
    // A symlink to /dev/fd/N or /proc/self/...: which file that is depends on the writing process.
    const descriptors = views.filter((v) => [v.resolved, ...(v.via ?? [])].some((p) => p !== null && DESCRIPTOR_LINK.test(p)));
    const reasons = [writes.unchecked, ...descriptors.map((v) => `${v.path} leads through a symlink to a descriptor of the writing process`)].filter((r): r is string => r !== null);
    return (this.shellCache = { views, linked, unchecked: reasons.length > 0 ? reasons.join('; ') : null, named: writes.named.map((p) => p.absolute) });
  }

  /** The views of what a command whose writes cannot be known names (ShellTouched.named), made when a rule asks. */
  get shellNamed(): PathView[] {
    return (this.shellNamedCache ??= this.shellTouched.named.map((p) => this.view(p, this.commandCwd)));
  }

  /** The folder the event's command runs in: its `cwd`, else the project root. */
  private get commandCwd(): string {
    return typeof this.event.cwd === 'string' && this.event.cwd !== '' ? this.event.cwd : this.ctx.projectRoot;
  }

  /** The context's facts, with thrown errors turned into FactError. */
  get facts(): Facts {
    return (this.factsCache ??= guardFacts(this.ctx.facts));
  }

  /** The memory store (facts.memory); null when there is none. Store-reading lets catch what it throws. */
  get memory(): MemoryFacts | null {
    return this.ctx.facts.memory ?? null;
  }

  /** Whose records: the event's session, and its agent as Decision.agent names it (the runner stores records so). */
  get who(): MemoryWho {
    return whoOf(this.event, this.agent);
  }

  /** The project folder's name. */
  get project(): string {
    const root = this.ctx.projectRoot.replace(/[\\/]+$/, '');
    return root.slice(Math.max(root.lastIndexOf('/'), root.lastIndexOf('\\')) + 1);
  }

  private view(raw: string, cwd: string): PathView {
    const facts = this.facts;
    const resolve = facts.resolve
      ? (p: string) => facts.resolve?.(p) ?? null
      : facts.realpath ? (p: string) => facts.realpath?.(p) ?? null : undefined;
    this.windowsCache ??= facts.volume?.().windows === true;
    const identity = this.identity;
    return pathView(raw, cwd, this.ctx.projectRoot, resolve, { windows: this.windowsCache, ...(identity ? { sameFile: (p: string) => identity.namesOf(p) } : {}) });
  }

  /** The guarded files by identity, looked at when a path first needs it; null when nothing is guarded so, or the facts cannot tell. */
  get identity(): GuardIdentity | null {
    if (this.identityCache === null && this.guarded !== null && this.facts.identity) this.identityCache = new GuardIdentity(this.guarded, this.facts);
    return this.identityCache;
  }

  /**
   * Every path the call touches, for the decision log: the tool's paths, or the files a
   * shell command writes (analysed now if no rule needed them, unless `analyse` is false:
   * then only what is known already; [] when the analysis fails, or when the paths are too
   * long to analyse: a 4 MB path is not normalized, redacted and hashed for the log).
   */
  touchedForRecord(analyse: boolean): string[] {
    if (this.tool === null || !SHELL_TOOLS.has(this.tool)) return this.oversizedInput(false) === null ? this.touched : [];
    if (!this.shellCache && !analyse) return [];
    try {
      const { views, linked } = this.shellTouched;
      return [...new Set([...views, ...linked].map((v) => v.path))];
    } catch {
      return [];
    }
  }

  /** Bindings for JSONata expressions: $agent, $tool, $paths, $env. */
  get bindings(): Record<string, unknown> {
    return (this.bindingsCache ??= { ...EXPRESSION_FUNCTIONS, agent: this.agent, tool: this.tool, paths: this.touched, env: this.ctx.env });
  }
}

function guardFacts(facts: Facts): Facts {
  return {
    findFiles: (glob: string): FileFact[] => guarded(() => facts.findFiles(glob), `cannot list files matching ${glob}`),
    stat: (path: string) => guarded(() => facts.stat(path), `cannot stat ${path}`),
    ...(facts.listFolder ? { listFolder: (path: string) => guarded(() => facts.listFolder?.(path) ?? null, `cannot list ${path}`) } : {}),
    readText: (path: string, maxBytes: number) => guarded(() => facts.readText(path, maxBytes), `cannot read ${path}`),
    ...(facts.realpath ? { realpath: (path: string) => guarded(() => facts.realpath?.(path) ?? null, `cannot resolve ${path}`) } : {}),
    ...(facts.resolve ? { resolve: (path: string) => guarded(() => facts.resolve?.(path) ?? null, `cannot resolve ${path}`) } : {}),
    ...(facts.volume ? { volume: () => guarded(() => facts.volume?.() ?? { windows: false }, 'cannot tell the file system') } : {}),
    ...(facts.identity ? { identity: (path: string) => guarded(() => facts.identity?.(path) ?? null, `cannot stat ${path}`) } : {}),
    ...(facts.readLink ? { readLink: (path: string) => guarded(() => facts.readLink?.(path) ?? null, `cannot read the link ${path}`) } : {}),
  };
}

function guarded<T>(call: () => T, what: string): T {
  try {
    return call();
  } catch (err) {
    // A walk the watchdog stopped is the rule's to answer (rule.ts), as a stopped pattern is.
    if (err instanceof UnsafeRegexError) throw err;
    throw new FactError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

let shellWritesModule: typeof ShellWritesModule | null = null;

/**
 * The shell analysis, loaded when a Bash event first reaches a rule with `paths`. The
 * build turns this require into one of dist/shell.cjs, so other events never read it.
 */
function loadShellWrites(): typeof ShellWritesModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (shellWritesModule ??= require('./shell/writes') as typeof ShellWritesModule);
}
