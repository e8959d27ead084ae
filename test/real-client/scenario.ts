/**
 * What the scripted model says, turn by turn. A scenario has one script for the main
 * session and one per subagent; a subagent's script is chosen by a marker in its first
 * user message (the `prompt` the main script passed to the Agent tool).
 */

/** One tool call the model makes. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** The tool's namespace, for a host that groups tools (Codex's `multi_agent_v1.spawn_agent`). */
  namespace?: string;
}

/** One model turn: tool calls (answered by Claude Code with tool results) or final text. */
export type Turn = { tools: ToolCall[] } | { text: string };

export interface SubagentScript {
  /** Chosen when the subagent's first user message contains this text. */
  marker: string;
  turns: Turn[];
}

export interface Scenario {
  main: Turn[];
  subagents?: SubagentScript[];
}

/** What the model says once a script has run out. */
export const DONE_TEXT = 'Scripted model: nothing left to do.';

/**
 * A turn of tool calls.
 * @example tools({ name: 'Write', input: { file_path: 'a.txt', content: 'x' } })
 */
export function tools(...calls: ToolCall[]): Turn {
  return { tools: calls };
}

/** A final text turn. @example say('done') */
export function say(text: string): Turn {
  return { text };
}

/**
 * The Bash command with which the agent stops the policy server on `port`, by the pid that
 * holds the port (never by name: a pattern would also stop a developer's real servers).
 * @example tools({ name: 'Bash', input: { command: stopServerCommand(8707), description: 'stop it' } })
 */
export function stopServerCommand(port: number): string {
  return `kill $(ss -ltnpH 'sport = :${port}' | sed -n 's/.*pid=\\([0-9]*\\).*/\\1/p' | head -1); sleep 0.5`;
}
