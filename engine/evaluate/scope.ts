/**
 * What the evaluator knows about one event, computed once and shared by every rule:
 * event name, tool, agent, and (lazily) the touched paths and the guarded facts.
 */
import type { EvaluationContext, Facts, FileFact, HookEvent } from '../types';
import { touchedPaths } from './paths';

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
  private factsCache: Facts | null = null;
  private bindingsCache: Record<string, unknown> | null = null;

  constructor(
    readonly event: HookEvent,
    readonly agent: string | null,
    readonly ctx: EvaluationContext,
  ) {
    this.eventName = typeof event.hook_event_name === 'string' ? event.hook_event_name : '';
    this.tool = typeof event.tool_name === 'string' ? event.tool_name : null;
  }

  /** The normalized paths the tool touches (computed on first use). */
  get touched(): string[] {
    return (this.touchedCache ??= touchedPaths(this.event, this.ctx.projectRoot));
  }

  /** The context's facts, with thrown errors turned into FactError. */
  get facts(): Facts {
    return (this.factsCache ??= guardFacts(this.ctx.facts));
  }

  /** The project folder's name. */
  get project(): string {
    const root = this.ctx.projectRoot.replace(/[\\/]+$/, '');
    return root.slice(Math.max(root.lastIndexOf('/'), root.lastIndexOf('\\')) + 1);
  }

  /** Bindings for JSONata expressions: $agent, $tool, $paths, $env. */
  get bindings(): Record<string, unknown> {
    return (this.bindingsCache ??= { agent: this.agent, tool: this.tool, paths: this.touched, env: this.ctx.env });
  }
}

function guardFacts(facts: Facts): Facts {
  return {
    findFiles: (glob: string): FileFact[] => guarded(() => facts.findFiles(glob), `cannot list files matching ${glob}`),
    stat: (path: string) => guarded(() => facts.stat(path), `cannot stat ${path}`),
    readText: (path: string, maxBytes: number) => guarded(() => facts.readText(path, maxBytes), `cannot read ${path}`),
  };
}

function guarded<T>(call: () => T, what: string): T {
  try {
    return call();
  } catch (err) {
    throw new FactError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
