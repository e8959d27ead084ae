import { parsePolicyText } from './load';
import { EVENT_NAMES } from './protocol';
import type { LoadedFile } from './types';
import { POLICY_SCHEMA, validatePlaced, validatePolicyFile } from './validate';

const lines = (...ls: string[]) => ls.join('\n') + '\n';

function validate(text: string) {
  const parsed = parsePolicyText('p.yaml', text);
  const file: LoadedFile = { file: 'p.yaml', hash: '', doc: parsed.doc, map: parsed.map, includes: [], root: true };
  return validatePolicyFile(file).map((d) => ({ at: `${d.code} ${d.line}:${d.column}`, message: d.message, hint: d.hint, file: d.file }));
}

const rule = (...ls: string[]) => lines('version: 1', 'rules:', '  - id: r1', '    on: PreToolUse', ...ls);

describe('validatePolicyFile', () => {
  test('a complete valid policy has no diagnostics', () => {
    const text = lines(
      'version: 1',
      'include: [security-guard, ./x.yaml]',
      'settings:',
      '  on_error: closed',
      '  bypass: { env: ATEAM, values: ["off"] }',
      '  log: { file: false, webhook: { url: "http://x", timeout_ms: 10, headers: { A: b } }, record: [deny, none] }',
      '  deadline_ms: 100',
      'agents:',
      '  identity: [agent_type]',
      '  strip_prefix: "ai-team:"',
      '  main: hannibal',
      '  roles: { workers: [ba, murdock] }',
      'rules:',
      '  - id: a.b:c-1_2',
      '    description: d',
      '    on: [TeammateIdle, TaskCompleted]',
      '    tools: Write|Edit',
      '    prompts: [user, task-notification]',
      '    agents: [workers]',
      '    match: { source: startup, tool_input.limit: 5, x: [a, true] }',
      '    paths: { allow: ["**"], deny: [".env"], except: [a] }',
      '    command: ["rm"]',
      '    when: "team_name"',
      '    only_if_exists: ".agent/{{team_name}}"',
      '    let: { gc: { newest: "a/*.md", extract: "^v", field: a.b, max_bytes: 10, optional: true } }',
      '    require: [{ file: x, min_bytes: 0 }]',
      '    log: false',
      '    block: "no"',
    );
    expect(validate(text)).toEqual([]);
  });

  test.each([
    ['unknown rule key, with a suggestion', rule('    tool: Write', '    deny: x'),
      { at: 'schema-unknown-key 5:5', message: 'Unknown key "tool" in rules[0]', hint: 'did you mean "tools"?' }],
    ['unknown top-level key', lines('version: 1', 'rule: []'),
      { at: 'schema-unknown-key 2:1', message: 'Unknown key "rule" at the top level', hint: 'did you mean "rules"?' }],
    ['unknown key without a close match lists small key sets', lines('version: 1', 'settings:', '  log:', '    zzzzzz: 1'),
      { at: 'schema-unknown-key 4:5', hint: 'allowed keys: file, webhook, record, redact, otlp' }],
    ['unknown key in a nested let', rule('    let: { a: { newset: x } }', '    deny: x'),
      { at: 'schema-unknown-key 5:17', hint: 'did you mean "newest"?' }],
    ['missing required key, at the parent', lines('version: 1', 'rules:', '  - id: r1', '    deny: x'),
      { at: 'schema-required 3:5', message: 'rules[0] is missing the required key "on"' }],
    ['missing version', lines('rules: []'),
      { at: 'schema-required 1:1', message: 'the policy is missing the required key "version"' }],
    ['wrong type', rule('    deny: x', '    log: "no"'),
      { at: 'schema-type 6:10', message: 'rules[0].log must be true or false' }],
    ['wrong type for a string-or-list', lines('version: 1', 'rules:', '  - id: r1', '    on: { a: 1 }', '    deny: x'),
      { at: 'schema-type 4:9', message: 'rules[0].on must be a string or a list' }],
    ['wrong item type', lines('version: 1', 'rules:', '  - id: r1', '    on: [Stop, 5]', '    deny: x'),
      { at: 'schema-type 4:16', message: 'rules[0].on[1] must be a string' }],
    ['enum with a suggestion', lines('version: 1', 'settings: { on_error: clsed }'),
      { at: 'schema-enum 2:23', message: 'settings.on_error must be one of: open, closed', hint: 'did you mean "closed"?' }],
    ['enum without a close match', lines('version: 2'),
      { at: 'schema-enum 1:10', hint: 'allowed: 1' }],
    ['prompts: an unknown kind, with a suggestion', rule('    prompts: usr', '    context: x'),
      { at: 'schema-enum 5:14', message: 'rules[0].prompts must be one of: user, task-notification', hint: 'did you mean "user"?' }],
    ['prompts: an unknown kind in a list', rule('    prompts: [user, notification]', '    context: x'),
      { at: 'schema-enum 5:21', message: 'rules[0].prompts[1] must be one of: user, task-notification' }],
    ['prompts: an empty list', rule('    prompts: []', '    context: x'),
      { at: 'schema-invalid 5:14', message: 'rules[0].prompts must not be an empty list' }],
    ['anyOf collapses to one diagnostic', lines('version: 1', 'settings: { log: { file: 3 } }'),
      { at: 'schema-type 2:26', message: 'settings.log.file must be a string or false' }],
    ['anyOf with true', lines('version: 1', 'settings: { log: { file: true } }'),
      { at: 'schema-type 2:26', message: 'settings.log.file must be a string or false' }],
    ['id pattern', lines('version: 1', 'rules:', '  - id: "has space"', '    on: Stop', '    block: x'),
      { at: 'schema-invalid 3:9', message: 'rules[0].id may only contain letters, digits and _ . : -' }],
    ['empty list', lines('version: 1', 'rules:', '  - id: r', '    on: []', '    block: x'),
      { at: 'schema-invalid 4:9', message: 'rules[0].on must not be an empty list' }],
    ['bad let name, at the key', rule('    let:', '      my-name: { expr: a }', '    deny: x'),
      { at: 'schema-invalid 6:7', message: 'Invalid name "my-name" in rules[0].let' }],
    ['the whole document is not a mapping', lines('- a'),
      { at: 'schema-type 1:1', message: 'the policy must be a mapping' }],
    ['an empty document', '',
      { at: 'schema-type 1:1' }],
    ['no outcome, at the id', lines('version: 1', 'rules:', '  - id: quiet', '    on: Stop'),
      { at: 'outcome-missing 3:9', message: 'Rule "quiet" has no outcome' }],
    ['a misspelled outcome is only an unknown key', rule('    dney: x'),
      { at: 'schema-unknown-key 5:5', hint: 'did you mean "deny"?' }],
    ['several outcomes, at the id', rule('    deny: a', '    warn: b'),
      { at: 'outcome-multiple 3:9', message: 'Rule "r1" has 2 outcomes (deny, warn)' }],
    ['let without a kind', rule('    let: { v: { extract: x } }', '    deny: x'),
      { at: 'schema-required 5:15', message: 'let value "v" needs one of: newest, file, expr, count, last, summaries, search, summary, metrics' }],
    ['let with two kinds, at the second kind key', rule('    let: { v: { newest: a, expr: b } }', '    deny: x'),
      { at: 'schema-invalid 5:28' }],
    ['a let option its kind does not take, at the key', rule('    let: { v: { search: "{{prompt}}", scope: agent } }', '    context: x'),
      { at: 'let-option-invalid 5:39', message: 'let value "v" (search) does not take scope' }],
    ['a file option on a store-reading let', rule('    let: { v: { count: test-fail, extract: x } }', '    context: x'),
      { at: 'let-option-invalid 5:35' }],
    ['an unknown let scope', rule('    let: { v: { count: test-fail, scope: team } }', '    context: x'),
      { at: 'schema-enum 5:42' }],
    ['a rule with neither outcome nor record', rule('    when: x'), { at: 'outcome-missing 3:9' }],
    ['a record without text', rule('    record: { kind: x }'), { at: 'schema-required 5:13' }],
    ['an unknown key in a record of a list', rule('    record: [{ kind: x, text: y, weight: 1 }]'), { at: 'schema-unknown-key 5:34' }],
  ])('%s', (_name, text, expected) => {
    const diagnostics = validate(text);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ file: 'p.yaml', ...expected });
  });

  test('every mistake is reported (allErrors)', () => {
    const text = rule('    tool: Write', '    agent: x', '    deny: 5');
    expect(validate(text).map((d) => d.at)).toEqual(['schema-unknown-key 5:5', 'schema-unknown-key 6:5', 'schema-type 7:11']);
  });
});

describe('validatePlaced: what each error is about, so the build leaves out only that', () => {
  const placed = (text: string) => {
    const parsed = parsePolicyText('p.yaml', text);
    const file: LoadedFile = { file: 'p.yaml', hash: '', doc: parsed.doc, map: parsed.map, includes: [], root: true };
    return validatePlaced(file).map((p) => [p.diagnostic.code, p.file, p.pointer]);
  };

  test.each([
    ['a rule\'s unknown key: the key in that rule', rule('    tool: Write', '    deny: x'), ['schema-unknown-key', 'p.yaml', '/rules/0/tool']],
    ['a rule\'s wrong value: the value', lines('version: 1', 'rules:', '  - id: a', '    on: Stop', '    block: x', '  - id: b', '    on: [Stop, 5]', '    block: y'),
      ['schema-type', 'p.yaml', '/rules/1/on/1']],
    ['a rule without an outcome: the rule', lines('version: 1', 'rules:', '  - id: quiet', '    on: Stop'), ['outcome-missing', 'p.yaml', '/rules/0']],
    ['a let value with two kinds: the let value', rule('    let: { v: { newest: a, expr: b } }', '    deny: x'), ['schema-invalid', 'p.yaml', '/rules/0/let/v']],
    ['a rule missing `on`: the rule', lines('version: 1', 'rules:', '  - id: r1', '    deny: x'), ['schema-required', 'p.yaml', '/rules/0']],
    ['a settings value', lines('version: 1', 'settings: { on_error: clsed }'), ['schema-enum', 'p.yaml', '/settings/on_error']],
    ['an unknown top-level key', lines('version: 1', 'rule: []'), ['schema-unknown-key', 'p.yaml', '/rule']],
    ['a missing version: the document', lines('rules: []'), ['schema-required', 'p.yaml', '']],
    ['rules that are not a list', lines('version: 1', 'rules: { id: r }'), ['schema-type', 'p.yaml', '/rules']],
  ])('%s', (_name, text, expected) => {
    expect(placed(text)).toEqual([expected]);
  });

  test('places exactly what validatePolicyFile reports', () => {
    const text = rule('    tool: Write', '    agent: x', '    deny: 5');
    expect(placed(text).map(([code]) => code)).toEqual(validate(text).map((d) => d.at.split(' ')[0]));
  });
});

describe('policy.schema.json', () => {
  type Schema = Record<string, any>;
  const definitions = (POLICY_SCHEMA as Schema).definitions as Record<string, Schema>;
  const resolve = (s: Schema): Schema => (s.$ref ? definitions[s.$ref.replace('#/definitions/', '')] : s);

  function* walk(s: Schema, path: string): Generator<[string, Schema]> {
    const schema = resolve(s);
    yield [path, schema];
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) yield* walk(child, `${path}.${key}`);
    if (schema.items) yield* walk(schema.items, `${path}[]`);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') yield* walk(schema.additionalProperties, `${path}{}`);
  }

  test('has an $id and is draft-07', () => {
    expect(POLICY_SCHEMA.$id).toEqual(expect.any(String));
    expect(POLICY_SCHEMA.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  test('every property has a title and description; every object with properties is closed', () => {
    for (const [path, schema] of walk(POLICY_SCHEMA as Schema, '$')) {
      expect([path, typeof schema.title, typeof schema.description]).toEqual([path, 'string', 'string']);
      if (schema.properties) expect([path, schema.additionalProperties]).toEqual([path, false]);
    }
  });

  test('suggests exactly the events of the protocol table', () => {
    expect(definitions.rule.properties.on.examples).toEqual(EVENT_NAMES);
  });
});
