/**
 * Compiles the merged `agents` section and resolves the agent names rules give.
 */
import type { CompiledAgents, LoadedFile } from '../types';
import type { CompileContext } from './context';
import { asList, at, isObject, report } from './context';
import { toPointer } from '../load/source-map';
import { firstDefined, precedenceOrder } from './precedence';

const DEFAULT_IDENTITY = ['agent_type', 'teammate_name'];

export interface AgentDirectory {
  agents: CompiledAgents;
  /** Agent names for a rule's `agents` (roles expanded), warning about names nobody defines. */
  resolve(ctx: CompileContext, names: string[], pointer: (i: number) => string): string[];
}

interface RoleDefinition {
  members: string[];
  file: LoadedFile;
}

/**
 * Merges `agents` over all files: roles are united, identity/strip_prefix/main come from the
 * file with the highest precedence. A role cycle is reported at the role that closes it.
 * @example compileAgents(files, diagnostics).agents.roles // { workers: ['murdock', 'ba'] }
 */
export function compileAgents(files: readonly LoadedFile[], diagnostics: CompileContext['diagnostics']): AgentDirectory {
  const ordered = precedenceOrder(files);
  const identity = firstDefined(ordered, (d) => d.agents?.identity)?.value;
  const strip = firstDefined(ordered, (d) => d.agents?.strip_prefix)?.value;
  const main = firstDefined(ordered, (d) => d.agents?.main)?.value;

  const definitions = new Map<string, RoleDefinition>();
  for (const file of files) {
    const roles = isObject(file.doc) && isObject(file.doc.agents) ? file.doc.agents.roles : undefined;
    if (!isObject(roles)) continue;
    for (const [role, members] of Object.entries(roles)) {
      const definition = definitions.get(role) ?? { members: [], file };
      definitions.set(role, definition);
      for (const member of asList(members)) if (!definition.members.includes(member)) definition.members.push(member);
    }
  }

  const roles: Record<string, string[]> = {};
  const reported = new Set<string>();
  const expand = (role: string, stack: string[]): string[] => {
    if (roles[role]) return roles[role];
    const out: string[] = [];
    for (const member of definitions.get(role)?.members ?? []) {
      if (!definitions.has(member)) {
        if (!out.includes(member)) out.push(member);
      } else if (member === role) {
        reportCycle([role, role]);
      } else if (stack.includes(member)) {
        reportCycle([...stack.slice(stack.indexOf(member)), role, member]);
      } else {
        for (const name of expand(member, [...stack, role])) if (!out.includes(name)) out.push(name);
      }
    }
    return out;
  };
  const reportCycle = (cycle: string[]) => {
    const first = cycle[cycle.length - 1];
    if (reported.has(first)) return;
    cycle.forEach((r) => reported.add(r));
    const definition = definitions.get(first) as RoleDefinition;
    const ctx = { file: definition.file, diagnostics };
    report(ctx, 'role-cycle', `Roles include each other: ${cycle.join(' -> ')}`, at(ctx, toPointer(['agents', 'roles', first]), 'key'));
  };
  for (const role of definitions.keys()) roles[role] = expand(role, []);

  const known: string[] = [];
  const remember = (name: string) => {
    if (!known.includes(name)) known.push(name);
  };
  if (typeof main === 'string') remember(main);
  Object.values(roles).forEach((members) => members.forEach(remember));
  const defined = new Set(known);

  const agents: CompiledAgents = {
    identity: identity === undefined ? [...DEFAULT_IDENTITY] : asList(identity),
    stripPrefixes: asList(strip),
    main: typeof main === 'string' ? main : null,
    roles,
    known,
  };

  return {
    agents,
    resolve(ctx, names, pointer) {
      const out: string[] = [];
      const add = (name: string) => {
        if (!out.includes(name)) out.push(name);
      };
      names.forEach((name, i) => {
        if (roles[name]) return roles[name].forEach(add);
        if (!defined.has(name)) {
          report(ctx, 'unknown-agent', `"${name}" is neither a role, agents.main, nor a member of a role`, at(ctx, pointer(i)), 'it is kept as an agent name; define it in agents.roles to silence this');
        }
        remember(name);
        add(name);
      });
      return out;
    },
  };
}
