import picomatch from 'picomatch';
import { escapeGlob, literalSegment, renderPathTemplate, type PathRender } from './path-template';

const values: Record<string, string> = {
  team_name: 'session-5f3a9c1e', paren: 'tester(1)', star: '*', question: 'researcher-?', brace: '{a,b}',
  dotdot: '..', dot: '.', 'env.HOME': '/home/dev', slash: 'a/b', back: 'a\\b', bang: '!x', path: 'src/a.ts', up: '../../etc/passwd', empty: '',
};
const lookup = (name: string) => values[name];

describe('renderPathTemplate', () => {
  test.each<[string, boolean, PathRender]>([
    ['.agent/teams/{{team_name}}', false, { text: '.agent/teams/session-5f3a9c1e', isGlob: false }],
    ['.agent/teams/{{team_name}}/**/{{paren}}/L1-index.yaml', true, { text: '.agent/teams/session-5f3a9c1e/**/tester[(]1[)]/L1-index.yaml', isGlob: true }],
    ['t/**/{{star}}/L1', true, { text: 't/**/[*]/L1', isGlob: true }],
    ['t/**/{{question}}/L1', true, { text: 't/**/researcher-[?]/L1', isGlob: true }],
    ['t/**/{{brace}}/L1', true, { text: 't/**/[{]a,b[}]/L1', isGlob: true }],
    // a plain path stays plain: its value is not escaped, and it is looked up as one file
    ['notes/{{star}}.md', true, { text: 'notes/*.md', isGlob: false }],
    ['t/{{glob:star}}/L1', true, { text: 't/*/L1', isGlob: true }],
    ['t/**/{{glob:question}}/L1', true, { text: 't/**/researcher-?/L1', isGlob: true }],
    ['.agent/teams/{{dotdot}}', false, { refused: 'dotdot', value: '..' }],
    ['.agent/teams/{{dot}}/x', false, { refused: 'dot', value: '.' }],
    ['.agent/teams/{{slash}}/**/x', true, { refused: 'slash', value: 'a/b' }],
    ['.agent/teams/{{back}}/**/x', true, { refused: 'back', value: 'a\\b' }],
    ['t/{{glob:dotdot}}/x', true, { refused: 'dotdot', value: '..' }],
    ['{{path}}', false, { text: 'src/a.ts', isGlob: false }],
    ['{{up}}', false, { refused: 'up', value: '../../etc/passwd' }],
    ['{{bang}}/**/x', true, { text: '[!]x/**/x', isGlob: true }],
    ['t/{{bang}}/**/x', true, { text: 't/!x/**/x', isGlob: true }],
    ['t/{{empty}}/x', false, { missing: 'empty' }],
    ['~/.claude/teams/*/config.json', true, { text: '/home/dev/.claude/teams/*/config.json', isGlob: true }],
    ['a/~/b', false, { text: 'a/~/b', isGlob: false }],
    ['t/{{nope}}/x', false, { missing: 'nope' }],
  ])('%s', (template, glob, expected) => {
    expect(renderPathTemplate(template, lookup, glob)).toEqual(expected);
  });

  test.each([['tester(1)'], ['*'], ['researcher-?'], ['{a,b}'], ['[x]'], ['a|b'], ['!(x)'], ['+(y)'], ['@(z)'], ['a]b'], ['x[!]y'], ['$$']])(
    'an escaped %s matches itself and nothing else',
    (name) => {
      const isMatch = picomatch(`t/**/${escapeGlob(name, false)}/L1`, { dot: true });
      expect(isMatch(`t/w/${name}/L1`)).toBe(true);
      for (const other of ['tester1', 'a', 'researcher-1', 'b', 'x', 'y', 'z', 'ab', 'x!y', '$']) {
        if (other !== name) expect(isMatch(`t/w/${other}/L1`)).toBe(false);
      }
    },
  );

  test('literalSegment reads back what escapeGlob wrote', () => {
    for (const name of ['tester(1)', '*', '{a,b}', 'a]b[c', 'plain']) expect(literalSegment(escapeGlob(name, false))).toBe(name);
    expect(literalSegment('*.md')).toBeNull();
    expect(literalSegment('[ab]')).toBeNull();
  });
});
