/**
 * docs/packs.md's tables of seed requirement → rule → test stay true: every rule of a pack
 * answers some seed requirement, each rule a row names is in the pack, each case it names
 * is in the pack's suite, each file it names exists.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const doc = fs.readFileSync(path.join(ROOT, 'docs', 'packs.md'), 'utf8');
const PACKS = ['ai-team', 'dia', 'security-guard', 'memory', 'metrics'];

function rows(pack: string): Array<{ requirement: string; rules: string[]; tests: string[] }> {
  const section = doc.slice(doc.indexOf(`\n## ${pack}\n`));
  const start = section.indexOf('**Seed requirement → rule → test**');
  expect(start).toBeGreaterThan(0);
  const table: string[] = [];
  for (const line of section.slice(start).split('\n').slice(1)) {
    if (line.startsWith('|')) table.push(line);
    else if (table.length > 0) break;
  }
  return table.filter((l) => !/^\|-/.test(l) && !l.startsWith('| seed requirement')).map((line) => {
    const [requirement, rules, tests] = line.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
    return { requirement, rules: [...rules.matchAll(/`([^`]+)`/g)].map((m) => m[1]), tests: tests.split('; ').map((t) => t.trim()) };
  });
}

describe.each(PACKS.map((p) => [p]))('docs/packs.md, %s: seed requirement → rule → test', (pack) => {
  const policy = parse(fs.readFileSync(path.join(ROOT, 'policies', `${pack}.yaml`), 'utf8')) as { rules: Array<{ id: string }> };
  const suite = parse(fs.readFileSync(path.join(ROOT, 'policies', 'tests', `${pack}.test.yaml`), 'utf8')) as { cases: Array<{ name: string }> };
  const table = rows(pack);
  const ids = policy.rules.map((r) => r.id);

  test('every rule of the pack answers a seed requirement', () => {
    const named = new Set(table.flatMap((r) => r.rules));
    expect(ids.filter((id) => !named.has(id))).toEqual([]);
  });

  test('each rule a row names is in the pack (or is a setting of it)', () => {
    const text = fs.readFileSync(path.join(ROOT, 'policies', `${pack}.yaml`), 'utf8');
    for (const rule of table.flatMap((r) => r.rules)) {
      const setting = /^(settings|agents)\.|^unparsable:/.test(rule);
      expect([rule, setting ? text.includes(rule.split('.').pop()!.replace('unparsable: ', 'unparsable: ')) : ids.includes(rule)]).toEqual([rule, true]);
    }
  });

  test('each case a row names is in the pack\'s suite, each file exists', () => {
    const names = new Set(suite.cases.map((c) => c.name));
    for (const test of table.flatMap((r) => r.tests)) {
      const file = /^`([^`]+)`$/.exec(test);
      if (file) expect([file[1], fs.existsSync(path.join(ROOT, file[1]))]).toEqual([file[1], true]);
      else expect([test, names.has(test.replace(/^"|"$/g, ''))]).toEqual([test, true]);
    }
  });
});
