/**
 * Gemini CLI's tools (0.61.0) as the rules name them: `run_shell_command` is Bash,
 * `write_file` Write, `replace` Edit, ... with their inputs in Claude Code's field names, so
 * a rule on `Write` with `paths` judges a `write_file` call. A tool without a counterpart
 * keeps its Gemini name (`save_memory`): a rule can name it as it is. MCP tools
 * (`mcp_<server>_<tool>`, with the server and tool in `mcp_context`) become
 * `mcp__<server>__<tool>`, as Claude Code names them.
 */

type Input = Record<string, unknown>;

interface ToolMap {
  /** The tool's name in the rules. */
  tool: string;
  /** Claude Code's input fields, from Gemini's (Gemini's own fields are kept beside them). */
  input(i: Input): Input;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Gemini's tool name → the rules' name and input. */
const TOOLS: Readonly<Record<string, ToolMap>> = {
  run_shell_command: { tool: 'Bash', input: (i) => ({ command: i.command, description: i.description }) },
  write_file: { tool: 'Write', input: (i) => ({ file_path: i.file_path, content: i.content }) },
  replace: { tool: 'Edit', input: (i) => ({ file_path: i.file_path, old_string: i.old_string, new_string: i.new_string, replace_all: i.allow_multiple === true }) },
  read_file: { tool: 'Read', input: (i) => ({ file_path: i.file_path }) },
  glob: { tool: 'Glob', input: (i) => ({ pattern: i.pattern, path: i.dir_path }) },
  grep_search: { tool: 'Grep', input: (i) => ({ pattern: i.pattern, path: i.dir_path, glob: i.include_pattern }) },
  list_directory: { tool: 'LS', input: (i) => ({ path: i.dir_path }) },
  web_fetch: { tool: 'WebFetch', input: (i) => ({ prompt: i.prompt }) },
  google_web_search: { tool: 'WebSearch', input: (i) => ({ query: i.query }) },
  write_todos: { tool: 'TodoWrite', input: (i) => ({ todos: i.todos }) },
  invoke_agent: { tool: 'Agent', input: (i) => ({ subagent_type: i.agent_name, prompt: i.prompt }) },
};

/**
 * The Gemini tools a rule's tool name selects, for init's matchers; [] when Gemini has none.
 * @example geminiToolsFor('Edit') // ['replace']
 */
export function geminiToolsFor(claudeTool: string): string[] {
  if (claudeTool === 'MultiEdit') return ['replace'];
  return Object.entries(TOOLS).filter(([, m]) => m.tool === claudeTool).map(([name]) => name);
}

/** What a Gemini tool call is to the rules. */
export interface MappedTool {
  tool_name: string;
  tool_input: Input;
  /** Set when the call runs elsewhere than the session's cwd (`dir_path` of a shell command). */
  cwd?: string;
}

/**
 * A Gemini tool call as the rules read it.
 * @example geminiTool('write_file', { file_path: 'a.ts', content: '' }, undefined, '/p')
 *   // { tool_name: 'Write', tool_input: { file_path: 'a.ts', content: '' } }
 */
export function geminiTool(name: string, input: unknown, mcp: unknown, cwd: string | undefined): MappedTool {
  const given: Input = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Input) : {};
  const server = mcp !== null && typeof mcp === 'object' ? str((mcp as Input).server_name) : undefined;
  const serverTool = mcp !== null && typeof mcp === 'object' ? str((mcp as Input).tool_name) : undefined;
  if (server && serverTool) return { tool_name: `mcp__${server}__${serverTool}`, tool_input: given };
  const map = Object.prototype.hasOwnProperty.call(TOOLS, name) ? TOOLS[name] : undefined;
  if (!map) return { tool_name: name, tool_input: given };
  const mapped = Object.fromEntries(Object.entries(map.input(given)).filter(([, v]) => v !== undefined));
  const out: MappedTool = { tool_name: map.tool, tool_input: { ...given, ...mapped } };
  const dir = name === 'run_shell_command' ? str(given.dir_path) : undefined;
  if (dir && dir !== '') out.cwd = dir.startsWith('/') || /^[A-Za-z]:[\\/]/.test(dir) || cwd === undefined ? dir : `${cwd.replace(/[\\/]+$/, '')}/${dir}`;
  return out;
}
