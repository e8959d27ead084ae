import fc from 'fast-check';
import { compiledRule, toolFilter } from '../test/support/compiled';
import { fcParams } from '../test/support/fuzz-config';
import { anyMatch } from './evaluate/regex';
import { buildRuleIndex, candidateRules, literalPrefix } from './rule-index';

describe('literalPrefix', () => {
  test.each<[string, string, string]>([
    ['^mcp__github__.*$', '', 'mcp__github__'],
    ['^mcp__.*__delete_.*$', '', 'mcp__'],
    ['^.*_delete$', '', ''],
    ['^Bash$', '', 'Bash'],
    ['^a\\.b.*$', '', 'a.b'],
    ['^ab?c$', '', 'a'],
    ['^ab{2}$', '', 'a'],
    ['^a\\.?b$', '', 'a'],
    ['^a\\db$', '', 'a'],
    ['^a[bc]$', '', 'a'],
    ['^a(b)$', '', 'a'],
    ['^ab|cd$', '', ''],
    ['mcp__.*', '', ''],
    ['^mcp__.*$', 'i', ''],
    ['^mcp__.*$', 'm', ''],
  ])('/%s/%s starts with %j', (source, flags, prefix) => {
    expect(literalPrefix({ source, flags })).toBe(prefix);
  });
});

describe('candidateRules with tool patterns', () => {
  const rules = [
    compiledRule({ id: 'gh', tools: toolFilter('mcp__github__*') }),
    compiledRule({ id: 'any-delete', tools: toolFilter('*_delete') }),
    compiledRule({ id: 'bash', tools: toolFilter('Bash') }),
    compiledRule({ id: 'all' }),
    compiledRule({ id: 'gh-or-write', tools: toolFilter('Write|mcp__github__create_*|mcp__gitlab__*') }),
  ];
  const index = buildRuleIndex(rules);
  const ids = (tool: string | null) => candidateRules(index, 'PreToolUse', tool).map((i) => rules[i].id);

  it('leaves out patterned rules whose literal start the tool name does not have', () => {
    expect(ids('Bash')).toEqual(['any-delete', 'bash', 'all']);
    expect(ids('mcp__github__create_issue')).toEqual(['gh', 'any-delete', 'all', 'gh-or-write']);
    expect(ids('mcp__gitlab__x')).toEqual(['any-delete', 'all', 'gh-or-write']);
    expect(ids('Write')).toEqual(['any-delete', 'all', 'gh-or-write']);
    expect(ids(null)).toEqual(['all']);
  });

  it('reads an index without prefixes (built before them) through its patterned list', () => {
    const old = JSON.parse(JSON.stringify(index));
    delete old.byEvent.PreToolUse.byPrefix;
    expect(candidateRules(old, 'PreToolUse', 'Bash').map((i) => rules[i].id)).toEqual(['gh', 'any-delete', 'bash', 'all', 'gh-or-write']);
  });

  it('never leaves out a rule whose pattern matches the tool (property)', () => {
    const part = fc.constantFrom('mcp', '__', 'git', 'hub', '_', 'x', 'Bash', '*', '.', '|');
    const pattern = fc.array(part, { minLength: 1, maxLength: 5 }).map((ps) => ps.join('')).filter((p) => p.includes('*') && !p.includes('|'));
    const tool = fc.array(fc.constantFrom('mcp', '__', 'git', 'hub', '_', 'x', 'Bash', '.'), { minLength: 1, maxLength: 6 }).map((ps) => ps.join(''));
    fc.assert(fc.property(fc.array(fc.array(pattern, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }), tool, (lists, t) => {
      const rs = lists.map((ps, i) => compiledRule({ id: `r${i}`, tools: toolFilter(ps.join('|')) }));
      const candidates = new Set(candidateRules(buildRuleIndex(rs), 'PreToolUse', t));
      rs.forEach((r, i) => {
        if (anyMatch(r.tools?.patterns ?? [], t)) expect({ tool: t, rule: lists[i], candidate: candidates.has(i) }).toEqual({ tool: t, rule: lists[i], candidate: true });
      });
    }), fcParams(5));
  });
});

describe('candidateRules with prompts', () => {
  it('offers a rule with prompts on UserPromptSubmit only, whatever else its on lists', () => {
    const rules = [
      compiledRule({ id: 'typed', events: ['UserPromptSubmit', 'Stop'], prompts: ['user'] }),
      compiledRule({ id: 'any', events: ['UserPromptSubmit', 'Stop'] }),
    ];
    const index = buildRuleIndex(rules);
    expect(candidateRules(index, 'UserPromptSubmit', null).map((i) => rules[i].id)).toEqual(['typed', 'any']);
    expect(candidateRules(index, 'Stop', null).map((i) => rules[i].id)).toEqual(['any']);
  });
});
