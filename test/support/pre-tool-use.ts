/**
 * A PreToolUse event through the built runner in a temp project, and the permission
 * decision it got ('none' when the runner said nothing), for the robustness suites.
 */
import type { TempProject } from './run-hook';

/** Runs a PreToolUse of `tool` with `input`, as `agent` (the main session when absent). */
export function pre(tool: string, input: Record<string, unknown>, project: TempProject, agent?: string) {
  return project.run({
    hook_event_name: 'PreToolUse', session_id: 's1', cwd: project.dir, permission_mode: 'default',
    tool_name: tool, tool_input: input, tool_use_id: 't1', ...(agent ? { agent_type: agent } : {}),
  });
}

/** The permission decision of a runner answer that exited 0, or 'none'. */
export function outcome(r: { json: unknown; exitCode: number | null }): string {
  expect(r.exitCode).toBe(0);
  const out = (r.json as { hookSpecificOutput?: { permissionDecision?: string } } | null)?.hookSpecificOutput;
  return out?.permissionDecision ?? 'none';
}
