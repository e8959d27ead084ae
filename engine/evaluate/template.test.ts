import fc from 'fast-check';
import { fcParams } from '../../test/support/fuzz-config';
import { parseTemplate, renderStrict, renderTemplate, templateNames } from './template';

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

describe('parseTemplate reads placeholders as the pattern /\\{\\{\\s*([^{}\\s]+)\\s*\\}\\}/g does', () => {
  const reference = (template: string): string[] => {
    const parts: string[] = [];
    let last = 0;
    for (const m of template.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)) {
      parts.push(template.slice(last, m.index), m[1]);
      last = (m.index ?? 0) + m[0].length;
    }
    return [...parts, template.slice(last)];
  };

  test.each(['{{agent}} may not write {{ path }}', '{{{x}}}', '{{ }}', '{{a b}}', 'no placeholder', '{{x}}{{y}}', '{{\u00a0x\u2028}}', '}}{{', '{{x}'])('%j', (template) => {
    expect(parseTemplate(template)).toEqual(reference(template));
  });

  it('on generated texts', () => {
    const unit = fc.constantFrom('{', '}', '{{', '}}', ' ', '\t', '\u00a0', '\u2028', '\ufeff', 'a', 'b', '.', '-');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }).map((u) => u.join('')), (template) => {
        expect(parseTemplate(template)).toEqual(reference(template));
      }),
      fcParams(5),
    );
  });
});
