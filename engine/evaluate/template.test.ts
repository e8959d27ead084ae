import { renderStrict, renderTemplate, templateNames } from './template';

const values: Record<string, string> = { agent: 'ba', path: 'src/a.ts', 'tool_input.url': 'https://x', empty: '' };
const lookup = (name: string) => values[name];

describe('renderTemplate', () => {
  test.each<[string, string]>([
    ['{{agent}} may not write {{path}}', 'ba may not write src/a.ts'],
    ['{{ agent }} / {{  path}}', 'ba / src/a.ts'],
    ['url {{tool_input.url}}', 'url https://x'],
    ['missing [{{nope}}]', 'missing []'],
    ['no placeholders', 'no placeholders'],
    ['{{agent}}{{agent}}', 'baba'],
    ['not closed {{agent', 'not closed {{agent'],
    ['{{}} stays', '{{}} stays'],
    ['', ''],
  ])('%s', (template, expected) => {
    expect(renderTemplate(template, lookup)).toBe(expected);
  });
});

describe('renderStrict', () => {
  test.each<[string, ReturnType<typeof renderStrict>]>([
    ['notes/{{agent}}.md', { text: 'notes/ba.md' }],
    ['teams/{{team_name}}/{{agent}}', { missing: 'team_name' }],
    ['x/{{empty}}', { missing: 'empty' }],
    ['plain', { text: 'plain' }],
  ])('%s', (template, expected) => {
    expect(renderStrict(template, lookup)).toEqual(expected);
  });
});

describe('templateNames', () => {
  test.each<[string, string[]]>([
    ['{{agent}} wrote {{ path }} as {{agent}}', ['agent', 'path']],
    ['{{env.HOME}} {{gc.path}}', ['env.HOME', 'gc.path']],
    ['none', []],
  ])('%s', (template, expected) => {
    expect(templateNames(template)).toEqual(expected);
  });
});
