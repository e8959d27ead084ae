import { globRegex } from './glob-regex';
import { buildRules, compiled, where } from './test-support';

describe('compiled paths', () => {
  test('each list becomes regexes, globs are kept as written', () => {
    const policy = compiled(buildRules(
      '  - id: r',
      '    on: PreToolUse',
      '    paths: { allow: ["src/**"], except: ["/tmp/**"] }',
      '    deny: x',
    ));
    const paths = policy.rules[0].paths!;
    expect(paths.globs).toEqual({ allow: ['src/**'], except: ['/tmp/**'] });
    expect(paths.deny).toBeNull();
    expect(paths.allow).toEqual([globRegex('src/**')]);
    expect(paths.except).toEqual([globRegex('/tmp/**')]);
    expect(policy.rules[0].paths!.allow![0].source.startsWith('^(?!/|\\.\\./)')).toBe(true);
  });

  test('a bad glob is invalid-glob at its position', () => {
    const result = buildRules(
      '  - id: r',
      '    on: PreToolUse',
      '    paths:',
      '      deny:',
      '        - ok/**',
      '        - "{a,b"',
      '    deny: x',
    );
    expect(result.policy?.rules).toEqual([]); // the rule is left out
    expect(result.diagnostics.map(where)).toEqual(['invalid-glob p.yaml:8:11']);
  });

  test.each([
    ['an unclosed class', '        - "src/[a-"', 'invalid-glob p.yaml:7:16', '"[" is never closed'],
    ['an unclosed extglob', "        - 'docs/@(a|b'", 'invalid-glob p.yaml:7:18', '"(" is never closed'],
  ])('%s is invalid-glob at its bracket', (_name, line, at, message) => {
    const result = buildRules('  - id: r', '    on: PreToolUse', '    paths:', '      deny:', line, '    deny: x');
    expect(result.policy?.rules).toEqual([]);
    expect(result.diagnostics.map(where)).toEqual([at]);
    expect(result.diagnostics[0].message).toContain(message);
  });

  test('no paths key is null', () => {
    const policy = compiled(buildRules('  - id: r', '    on: Stop', '    block: x'));
    expect(policy.rules[0].paths).toBeNull();
  });
});
