/**
 * Hand-built compiled policies for evaluator tests, with the same glob and pattern
 * encoding the compiler emits.
 */
import picomatch from 'picomatch';
import { buildRuleIndex } from '../../engine/rule-index';
import type {
  CompiledAgents,
  CompiledPathFilter,
  CompiledPolicy,
  CompiledRule,
  CompiledSettings,
  RegexSource,
} from '../../engine/types';

/**
 * A glob as the compiler encodes it: picomatch with dot:true; a relative glob never
 * matches an absolute path or one leaving the project.
 * @example globRegex('**').source // '^(?!/|\\.\\./)(?:...)$'
 */
export function globRegex(glob: string): RegexSource {
  const re = picomatch.makeRe(glob, { dot: true });
  const relative = !glob.startsWith('/');
  return { source: relative ? `^(?!/|\\.\\./)${re.source.slice(1)}` : re.source, flags: re.flags };
}

/** A `*`-wildcard pattern (tools, match) as an anchored regex. */
export function wildcardRegex(pattern: string): RegexSource {
  const body = pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return { source: `^${body}$`, flags: '' };
}

/** `tools: "Write|Edit|mcp__*"` as the compiler would split it. */
export function toolFilter(spec: string): CompiledRule['tools'] {
  const names = spec.split(/[|,]/).map((s) => s.trim()).filter(Boolean);
  return {
    names: names.filter((n) => !n.includes('*')),
    patterns: names.filter((n) => n.includes('*')).map(wildcardRegex),
  };
}

/** A `paths` filter from globs. */
export function pathFilter(globs: { allow?: string[]; deny?: string[]; except?: string[] }): CompiledPathFilter {
  return {
    allow: globs.allow ? globs.allow.map(globRegex) : null,
    deny: globs.deny ? globs.deny.map(globRegex) : null,
    except: globs.except ? globs.except.map(globRegex) : null,
    globs,
  };
}

/** `match: { field: [patterns] }` as compiled. */
export function matchFilter(spec: Record<string, string | string[]>): CompiledRule['match'] {
  return Object.entries(spec).map(([field, p]) => ({ field, patterns: (Array.isArray(p) ? p : [p]).map(wildcardRegex) }));
}

let line = 0;

/**
 * A compiled rule with defaults for everything not given (deny on PreToolUse, no conditions,
 * a fresh id and source line).
 * @example compiledRule({ tools: toolFilter('Bash'), command: [{ source: 'rm', flags: '' }] })
 */
export function compiledRule(partial: Partial<CompiledRule> = {}): CompiledRule {
  line += 1;
  return {
    id: `rule-${line}`,
    source: { file: 'policy.yaml', line, column: 5 },
    events: ['PreToolUse'],
    tools: null,
    prompts: null,
    agents: null,
    match: [],
    paths: null,
    command: null,
    when: null,
    onlyIfExists: null,
    lets: [],
    requires: [],
    outcome: 'deny',
    message: 'denied by {{rule}}',
    bypasses: [],
    log: true,
    ...partial,
  };
}

/**
 * A compiled policy over the rules (index built), with default settings and agents unless given.
 * @example compiledPolicy([rule], { deadlineMs: 50 }, { main: 'hannibal' })
 */
export function compiledPolicy(
  rules: CompiledRule[],
  settings: Partial<CompiledSettings> = {},
  agents: Partial<CompiledAgents> = {},
): CompiledPolicy {
  return {
    format: 1,
    sources: [{ file: 'policy.yaml', hash: 'test' }],
    settings: {
      onError: 'open',
      bypasses: [],
      log: { file: null, webhook: null, record: ['deny', 'ask', 'block', 'allow', 'warn', 'context', 'bypass', 'error'] },
      deadlineMs: 5000,
      ...settings,
    },
    agents: { identity: ['agent_type', 'teammate_name'], stripPrefixes: [], main: null, roles: {}, known: [], ...agents },
    rules,
    index: buildRuleIndex(rules),
  };
}
