/**
 * Coding agents other than Claude Code, as adapters at the edge of the pipeline: a host's
 * event is read into the Claude Code shape the rules are written against (event and tool
 * names mapped in), and the renderer's answer is written back in the host's own shape (only
 * the fields it accepts). The engine never branches on the host: it sees Claude Code events,
 * and the protocol rows an adapter gives it say what the host honours.
 *
 * One folder per host (`codex/`, `gemini/`, `copilot/`), each with `adapter.ts` (what the
 * runner loads, as a chunk of its own, only under `policy hook --host NAME`) and the files
 * init, lint and the docs read. Pure: no fs, no process.
 */
import type { EventProtocol } from '../protocol';
import type { Output } from '../render/output';
import type { HookEvent, HookResponse } from '../types';

/** Every host hookpolicy answers; `claude` is Claude Code, the default. */
export const HOST_NAMES = ['claude', 'codex', 'gemini', 'copilot'] as const;

export type HostName = (typeof HOST_NAMES)[number];

/** A host other than Claude Code. */
export type OtherHostName = Exclude<HostName, 'claude'>;

/** The hosts `policy hook --host` has an adapter for. */
export const ADAPTED_HOSTS = ['codex', 'gemini'] as const;

export type AdaptedHostName = (typeof ADAPTED_HOSTS)[number];

/**
 * True for a host `policy hook --host` can answer.
 * @example isAdaptedHost('gemini') // true
 */
export function isAdaptedHost(name: string): name is AdaptedHostName {
  return (ADAPTED_HOSTS as readonly string[]).includes(name);
}

/**
 * True for a name in HOST_NAMES.
 * @example isHostName('codex') // true
 */
export function isHostName(name: string): name is HostName {
  return (HOST_NAMES as readonly string[]).includes(name);
}

/** One event of a host, read in. */
export interface HostEventIn {
  /** The host's own name for it (`BeforeTool`). */
  hostEvent: string;
  /**
   * The events the rules judge, in Claude Code's shape: one as a rule, one per file a Codex
   * patch touches, none when the host event has no counterpart a rule can name (the runner
   * then answers nothing).
   */
  events: HookEvent[];
}

/** What the renderer needs of a host: what it honours, and how to write it. */
export interface HostRender {
  /** The host's name as users know it (`Codex CLI`), for messages. */
  readonly title: string;
  /**
   * What the host honours on one of its events, as a protocol row under the Claude Code
   * event name the rules use (a row that honours nothing for an event it does not have).
   */
  protocol(event: string): EventProtocol;
  /** What the renderer decided to say, written in the host's shape. */
  write(p: EventProtocol, out: Output): HookResponse;
}

/** A host adapter: what `policy hook --host NAME` loads. */
export interface HostAdapter extends HostRender {
  readonly name: AdaptedHostName;
  /**
   * The host names the acting agent in its events (Codex's `agent_type`). Where it does not,
   * a rule that names agents cannot judge an event (identity.ts).
   */
  readonly identity: boolean;
  /** stdin's JSON object as the events the rules read; null when it is no event of this host. */
  read(input: Record<string, unknown>): HostEventIn | null;
}
