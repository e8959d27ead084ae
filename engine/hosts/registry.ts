/**
 * What lint, init and the docs need to know of each host, in one table: its name, whether
 * its events name the acting agent, its events and what it honours on each. Not read by
 * the runner, which loads only the adapter `--host` names.
 */
import type { EventProtocol } from '../protocol';
import { CODEX_EVENTS, codexProtocol } from './codex/events';
import { geminiEventFor, geminiProtocol } from './gemini/events';
import type { OtherHostName } from './types';

export interface HostInfo {
  name: OtherHostName;
  title: string;
  /** Its events name the acting agent (a subagent's agent_type). */
  identity: boolean;
  /** The host's own name for a Claude Code event the rules use, or null when it has none. */
  eventFor(event: string): string | null;
  /** What it honours on that event. */
  protocol(event: string): EventProtocol;
}

/** The hosts hookpolicy has an adapter for, other than Claude Code. */
export const HOSTS: Readonly<Record<'codex' | 'gemini', HostInfo>> = {
  codex: { name: 'codex', title: 'Codex CLI', identity: true, eventFor: (e) => (CODEX_EVENTS.includes(e) ? e : null), protocol: codexProtocol },
  gemini: { name: 'gemini', title: 'Gemini CLI', identity: false, eventFor: geminiEventFor, protocol: geminiProtocol },
};
