/**
 * Built-in: no agent reads the policy server's state folder (`<cache>/serve`, where its
 * token is), with a file tool or by naming it in a shell command. On Linux the server
 * relies on no secret an agent could read (docs/commands/serve.md#trust); elsewhere the
 * token is what `policy serve --ensure` trusts, so it is kept from the agents as the guard's
 * files are kept from their writes. The file tools' rule rides along (`policy init` routes
 * no Read for it: Claude Code's permission rule `Read(...)` for the same folder, which init
 * writes, refuses those); the shell's is routed with Bash anyway. A command that builds the
 * path at run time is not seen here: that permission rule and the sandbox, which hides the
 * folder, hold there.
 */
import { BUILT_IN_SOURCE } from './built-in-rule';
import { globRegex } from './compile/glob-regex';
import { escapeRegex } from './compile/patterns';
import { escapeGlob } from './glob-text';
import type { CompiledRule, RegexSource } from './types';

export const SERVER_SECRETS_ID = 'hookpolicy-server-secrets';

/** What the rules need of self-protection's facts: the cache folders and the home folder. */
export interface ServerSecretFacts {
  projectRoot: string;
  cacheDirs: string[];
  home: string | null;
}

/** The tools that read a file or a folder by a path in their input. */
const READING_TOOLS: readonly string[] = ['Read', 'Grep', 'Glob', 'NotebookRead', 'LS'];

const SHELLS: readonly string[] = ['Bash', 'PowerShell'];

const MESSAGE = '{{path}} is the policy server\'s state folder, which holds its token: no agent may read it.';

const COMMAND_MESSAGE = 'This command names the policy server\'s state folder, which holds its token: no agent may read it.';

/**
 * The policy server's state folders (`serve/` under each cache folder), as absolute paths.
 * @example serverStateFolders({ ...facts, cacheDirs: ['/home/me/.cache/hookpolicy'] }) // ['/home/me/.cache/hookpolicy/serve']
 */
export function serverStateFolders(facts: ServerSecretFacts): string[] {
  return facts.cacheDirs.map((dir) => `${dir.replace(/\/+$/, '')}/serve`);
}

/**
 * The two built-in rules: file tools by path, shell commands by the folder's name in them
 * (absolute, or under `~` or `$HOME` when it is in the home folder).
 * @example serverSecretRules(facts).map((r) => r.id) // ['hookpolicy-server-secrets', 'hookpolicy-server-secrets']
 */
export function serverSecretRules(facts: ServerSecretFacts): CompiledRule[] {
  const folders = serverStateFolders(facts);
  if (folders.length === 0) return [];
  // A folder in the project is named as paths in the project are (relative to it).
  const root = `${facts.projectRoot.replace(/\/+$/, '')}/`;
  const inProject = (f: string) => (f.startsWith(root) ? f.slice(root.length) : null);
  const globs = folders.flatMap((f) => {
    const glob = escapeGlob(inProject(f) ?? f);
    return [glob, `${glob}/**`];
  });
  const deny = globs.flatMap((g) => {
    const r = globRegex(g);
    return r ? [r] : [];
  });
  const files = { ...rule(READING_TOOLS, MESSAGE, { paths: { allow: null, deny, except: null, globs: { deny: globs } } }), ridesAlong: true as const };
  const shell = rule(SHELLS, COMMAND_MESSAGE, { command: folders.map((f) => namedIn(f, facts.home, inProject(f))) });
  return [files, shell];
}

/** A pattern for a command that names `folder` (or a path in it): absolute, from the home folder, or from the project. */
function namedIn(folder: string, home: string | null, relative: string | null): RegexSource {
  const spellings = [escapeRegex(folder)];
  if (relative !== null) spellings.push(`(?<![^\\s'"=:;&|(])(?:\\./)?${escapeRegex(relative)}`);
  const base = home?.replace(/\/+$/, '');
  if (base && folder.startsWith(`${base}/`)) {
    const rest = escapeRegex(folder.slice(base.length));
    spellings.push(`~${rest}`, `\\$HOME${rest}`, `\\$\\{HOME\\}${rest}`);
  }
  // The folder's name as a whole path word: itself, or followed by `/` and more.
  return { source: `(?:${spellings.join('|')})(?![^/\\s'";&|)])`, flags: '' };
}

function rule(tools: readonly string[], message: string, match: Pick<Partial<CompiledRule>, 'paths' | 'command'>): CompiledRule {
  return {
    id: SERVER_SECRETS_ID,
    description: 'the policy server\'s token is read by hookpolicy, not by agents',
    source: { file: BUILT_IN_SOURCE, line: 0, column: 0 },
    events: ['PreToolUse'],
    tools: { names: [...tools], patterns: [] },
    prompts: null,
    agents: null,
    match: [],
    paths: match.paths ?? null,
    command: match.command ?? null,
    when: null,
    onlyIfExists: null,
    lets: [],
    requires: [],
    outcome: 'deny',
    message,
    bypasses: [],
    log: true,
    unparsable: 'ignore',
  };
}
