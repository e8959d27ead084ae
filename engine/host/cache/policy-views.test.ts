import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import YAML from 'yaml';
import { MemoryFacts, type MemoryFile } from '../../../test/support/memory-facts';
import { evaluate } from '../../evaluate';
import { expandShorthand } from '../../testing/shorthand';
import type { EventShorthand } from '../../testing/types';
import type { CompiledPolicy, Decision, HookEvent } from '../../types';
import { compilePolicyFiles } from '../compile-entry';
import { isViewOf, namedAgents, policyFromView, policyView, policyViews, viewTool, whoOf } from './policy-views';

const PACKS = path.join(__dirname, '..', '..', '..', 'policies');
let dir: string;
let policy: CompiledPolicy;

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'views-')));
  fs.writeFileSync(path.join(dir, 'policies.yaml'), 'version: 1\ninclude: [ai-team, dia, security-guard]\n');
  const built = compilePolicyFiles([path.join(dir, 'policies.yaml')]);
  if (!built.policy) throw new Error('the packs do not build');
  policy = built.policy;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface PackCase { event: HookEvent; files: Record<string, MemoryFile> }

/** Every shorthand event of the shipped packs' own suites with its files, plus tools no rule names. */
function packCases(): PackCase[] {
  const cases: PackCase[] = [];
  for (const file of fs.readdirSync(path.join(PACKS, 'tests')).filter((f) => f.endsWith('.test.yaml'))) {
    const suite = YAML.parse(fs.readFileSync(path.join(PACKS, 'tests', file), 'utf8')) as { cases: Array<{ event?: EventShorthand | string; files?: Record<string, MemoryFile> }> };
    for (const c of suite.cases) if (c.event && typeof c.event === 'object') cases.push({ event: expandShorthand(c.event, dir), files: c.files ?? {} });
  }
  const extra: EventShorthand[] = [
    { event: 'PreToolUse', tool: 'mcp__github__create_pull_request' },
    { event: 'PreToolUse', tool: 'NotebookEdit', path: '.env' },
    { event: 'PostToolUse', tool: 'Bash', command: 'rm -rf /' },
  ];
  return [...cases, ...extra.map((e) => ({ event: expandShorthand(e, dir), files: {} }))];
}

const outcomeOf = (d: Decision) => ({ outcome: d.outcome, reason: d.reason, hits: d.hits.map((h) => [h.id, h.outcome, h.message]), errors: d.errors.map((e) => e.code) });

describe('policyViews', () => {
  it('a view decides every pack test event exactly as the whole policy does', async () => {
    const { catalog, views } = policyViews(policy, 'b');
    const cases = packCases();
    expect(cases.length).toBeGreaterThan(60);
    const seen = new Set<string>();
    for (const { event, files } of cases) {
      const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
      const which = viewTool(catalog, event.hook_event_name, tool);
      const view = which === undefined ? null : views.find((v) => v.event === event.hook_event_name && v.tool === which) ?? null;
      if (which !== undefined) expect(view).not.toBeNull();
      const ctx = () => ({ projectRoot: dir, env: {}, facts: new MemoryFacts(files) });
      const whole = await evaluate(policy, event, ctx());
      const cut = await evaluate(policyFromView(policy, view), event, ctx());
      seen.add(whole.outcome);
      expect({ event: event.hook_event_name, tool, ...outcomeOf(cut) }).toEqual({ event: event.hook_event_name, tool, ...outcomeOf(whole) });
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(['ask', 'block', 'deny', 'none']));
  });

  it('a view cut for whoever acts in the event decides it exactly as the whole policy does, with fewer rules', async () => {
    const { catalog } = policyViews(policy, 'b');
    const cases = packCases();
    let cutRules = 0;
    let allRules = 0;
    for (const { event, files } of cases) {
      const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
      const which = viewTool(catalog, event.hook_event_name, tool);
      if (which === undefined) continue;
      const who = whoOf(policy.agents, namedAgents(policy.rules), event);
      const view = policyView(policy, 'b', event.hook_event_name, which, who);
      cutRules += view?.rules.length ?? 0;
      allRules += policyView(policy, 'b', event.hook_event_name, which)?.rules.length ?? 0;
      const ctx = () => ({ projectRoot: dir, env: {}, facts: new MemoryFacts(files) });
      const whole = await evaluate(policy, event, ctx());
      const cut = await evaluate(policyFromView(policy, view), event, ctx());
      expect({ event: event.hook_event_name, tool, who, ...outcomeOf(cut) }).toEqual({ event: event.hook_event_name, tool, who, ...outcomeOf(whole) });
    }
    // The packs name their agents: a cut view leaves rules out.
    expect(cutRules).toBeLessThan(allRules);
  });

  it('tells apart only the agents the rules name: any other agent, and none, get the same view, which decides as the whole policy does', async () => {
    const named = namedAgents(policy.rules);
    expect(named).toEqual(expect.arrayContaining(['murdock', 'ba']));
    const { catalog } = policyViews(policy, 'b');
    let compared = 0;
    for (const { event, files } of packCases()) {
      const tool = typeof event.tool_name === 'string' ? event.tool_name : null;
      const which = viewTool(catalog, event.hook_event_name, tool);
      if (which === undefined) continue;
      for (const stranger of ['stranger-1', 'MURDOCK', 'ai-team:', 'builders']) {
        const as: HookEvent = { ...event, agent_type: stranger };
        const who = whoOf(policy.agents, named, as);
        expect(who.agent === null || named.includes(who.agent)).toBe(true);
        const view = policyView(policy, 'b', event.hook_event_name, which, who);
        const ctx = () => ({ projectRoot: dir, env: {}, facts: new MemoryFacts(files) });
        const whole = await evaluate(policy, as, ctx());
        const cut = await evaluate(policyFromView(policy, view), as, ctx());
        expect({ event: event.hook_event_name, tool, stranger, ...outcomeOf(cut) }).toEqual({ event: event.hook_event_name, tool, stranger, ...outcomeOf(whole) });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
    const strangers = ['x', 'y-2'].map((a) => whoOf(policy.agents, named, { hook_event_name: 'PreToolUse', agent_type: a }));
    expect(strangers).toEqual([{ agent: null, main: false }, { agent: null, main: false }]);
  });

  it('keeps, for an agent, only the rules its agents condition lets through; a view is only the one of whom it was cut for', () => {
    const murdock = whoOf(policy.agents, namedAgents(policy.rules), { hook_event_name: 'PreToolUse', agent_type: 'ai-team:murdock' });
    const main = whoOf(policy.agents, namedAgents(policy.rules), { hook_event_name: 'PreToolUse' });
    expect(murdock).toEqual({ agent: 'murdock', main: false });
    expect(main).toEqual({ agent: policy.agents.main ?? null, main: true });
    const forMurdock = policyView(policy, 'b', 'PreToolUse', 'Write', murdock)!;
    expect(forMurdock.rules.every((r) => r.agents === null || r.agents.includes('murdock'))).toBe(true);
    expect(forMurdock.rules.every((r) => r.actors === undefined || r.actors === 'agents')).toBe(true);
    expect(isViewOf(JSON.parse(JSON.stringify(forMurdock)), 'b', 'PreToolUse', 'Write', murdock)).toBe(true);
    expect(isViewOf(JSON.parse(JSON.stringify(forMurdock)), 'b', 'PreToolUse', 'Write', main)).toBe(false);
    expect(isViewOf(JSON.parse(JSON.stringify(forMurdock)), 'b', 'PreToolUse', 'Write')).toBe(false);
  });

  it('keeps the patterned rules that match a named tool in that tool\'s view', async () => {
    const file = path.join(dir, 'patterned.yaml');
    fs.writeFileSync(file, [
      'version: 1',
      'rules:',
      '  - { id: exact, on: PreToolUse, tools: Bash, command: ["^make deploy"], deny: "no deploys" }',
      '  - { id: b-star, on: PreToolUse, tools: "B*", ask: "a B tool" }',
      '  - { id: mcp, on: PreToolUse, tools: "mcp__*|Read", warn: "mcp or read" }',
      '  - { id: any, on: [PreToolUse, Stop], warn: "any tool" }',
    ].join('\n'));
    const built = compilePolicyFiles([file]).policy as CompiledPolicy;
    const { catalog, views } = policyViews(built, 'b');
    expect(catalog).toEqual({ PreToolUse: ['Bash', 'Read'], Stop: [] });
    const ids = (tool: string | null, event = 'PreToolUse') => views.find((v) => v.event === event && v.tool === tool)?.rules.map((r) => r.id);
    expect(ids('Bash')).toEqual(['exact', 'b-star', 'any']);
    expect(ids('Read')).toEqual(['mcp', 'any']);
    expect(ids(null)).toEqual(['b-star', 'mcp', 'any']);
    expect(ids(null, 'Stop')).toEqual(['any']);
    const event = expandShorthand({ event: 'PreToolUse', tool: 'Bash', command: 'make deploy' }, dir);
    const view = views.find((v) => v.event === 'PreToolUse' && v.tool === 'Bash') ?? null;
    const ctx = { projectRoot: dir, env: {}, facts: new MemoryFacts() };
    expect(outcomeOf(await evaluate(policyFromView(built, view), event, ctx))).toEqual(outcomeOf(await evaluate(built, event, ctx)));
  });

  it('keeps only the rules that can apply, in policy order', () => {
    const { catalog, views } = policyViews(policy, 'b');
    const order = new Map(policy.rules.map((r, i) => [r.id, i]));
    for (const view of views) {
      const positions = view.rules.map((r) => order.get(r.id) as number);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
      for (const rule of view.rules) expect(rule.events).toContain(view.event);
    }
    const bash = views.find((v) => v.event === 'PreToolUse' && v.tool === 'Bash');
    expect(catalog.PreToolUse).toContain('Bash');
    expect(bash?.rules.length).toBeLessThan(policy.rules.length);
    expect(bash?.rules.every((r) => r.tools === null || r.tools.names.includes('Bash') || r.tools.patterns.length > 0)).toBe(true);
  });

  it('serves a tool without a view of its own from the event\'s view for other tools, and an event without rules from none', () => {
    const { catalog } = policyViews(policy, 'b');
    expect(viewTool(catalog, 'PreToolUse', 'Bash')).toBe('Bash');
    expect(viewTool(catalog, 'PreToolUse', 'mcp__x__y')).toBeNull();
    expect(viewTool(catalog, 'PreToolUse', null)).toBeNull();
    expect(viewTool(catalog, 'NoSuchEvent', 'Bash')).toBeUndefined();
    expect(policyFromView(policy, null).rules).toEqual([]);
  });
});
