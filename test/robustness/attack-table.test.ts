/**
 * docs/reliability.md's table of the attack classes tried (issue 12) says how many cases
 * each class has; this counts them in the suites it names and fails when a number is off.
 * A case is one test: an it()/test() call, or one row of the table an it.each/test.each
 * iterates. Jest itself lists them (every test skipped, none run), so rows built by code
 * count as they run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const SECTION = '## Attack classes tried';

interface Selector {
  file: string;
  /** A describe block (at any depth) or a test title; absent: the whole file. */
  title?: string;
}

interface TableRow {
  attack: string;
  selectors: Selector[];
  cases: number;
}

interface ListedTest {
  ancestorTitles: string[];
  title: string;
}

/** The table's rows: `file` or `file` › `title` items in the third cell, the number in the last. */
function tableRows(doc: string): TableRow[] {
  const start = doc.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`docs/reliability.md has no "${SECTION}" section`);
  const rest = doc.slice(start + SECTION.length + 2);
  const end = rest.search(/\n## /);
  const lines = (end < 0 ? rest : rest.slice(0, end)).split('\n').filter((l) => l.startsWith('|'));
  return lines.slice(2).map((line) => {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    const selectors = [...cells[2].matchAll(/`([^`]+\.test\.ts)`(?:\s*›\s*`([^`]+)`)?/g)]
      .map((m) => (m[2] ? { file: m[1], title: m[2] } : { file: m[1] }));
    return { attack: cells[0], selectors, cases: Number(cells[cells.length - 1].replace(/\*/g, '').replace(/,/g, '')) };
  });
}

/** Every test of `files`, as jest lists them without running any. */
function listTests(files: string[]): Map<string, ListedTest[]> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'attack-table-')), 'tests.json');
  const jest = require.resolve('jest/bin/jest');
  const run = spawnSync(process.execPath, [jest, '--ci', '--silent', '--runInBand', '--json', `--outputFile=${out}`, '--testNamePattern', 'a^', ...files], {
    cwd: REPO, encoding: 'utf8', timeout: 240_000,
  });
  if (!fs.existsSync(out)) throw new Error(`jest listed nothing:\n${run.stderr}`);
  const result = JSON.parse(fs.readFileSync(out, 'utf8')) as { testResults: Array<{ name: string; message: string; assertionResults: ListedTest[] }> };
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const byFile = new Map<string, ListedTest[]>();
  for (const r of result.testResults) {
    if (r.assertionResults.length === 0 && r.message) throw new Error(`${r.name} cannot be loaded:\n${r.message}`);
    byFile.set(path.relative(REPO, r.name).split(path.sep).join('/'), r.assertionResults);
  }
  return byFile;
}

function count(tests: Map<string, ListedTest[]>, selector: Selector): number {
  const all = tests.get(selector.file) ?? [];
  if (!selector.title) return all.length;
  return all.filter((t) => t.title === selector.title || t.ancestorTitles.includes(selector.title as string)).length;
}

describe('docs/reliability.md: the attack classes tried', () => {
  const doc = fs.readFileSync(path.join(REPO, 'docs', 'reliability.md'), 'utf8');
  const rows = tableRows(doc);
  const classes = rows.filter((r) => r.attack !== '**total**');

  it('names suites that exist, and a number for every class', () => {
    expect(classes.length).toBeGreaterThanOrEqual(10);
    for (const row of classes) {
      expect({ attack: row.attack, selectors: row.selectors.length > 0, cases: Number.isInteger(row.cases) }).toEqual({ attack: row.attack, selectors: true, cases: true });
      for (const s of row.selectors) expect({ file: s.file, exists: fs.existsSync(path.join(REPO, s.file)) }).toEqual({ file: s.file, exists: true });
    }
  });

  it('says how many cases each class has, as the suites hold them', () => {
    const files = [...new Set(classes.flatMap((r) => r.selectors.map((s) => s.file)))];
    const tests = listTests(files);
    // Each selector finds something: a renamed describe or test must not count as zero.
    const empty = classes.flatMap((r) => r.selectors.filter((s) => count(tests, s) === 0).map((s) => `${s.file} › ${s.title ?? '(whole file)'}`));
    expect(empty).toEqual([]);
    const counted = classes.map((r) => ({ attack: r.attack, cases: r.selectors.reduce((n, s) => n + count(tests, s), 0) }));
    expect(classes.map((r) => ({ attack: r.attack, cases: r.cases }))).toEqual(counted);
    const total = rows.find((r) => r.attack === '**total**');
    expect(total?.cases).toBe(counted.reduce((n, r) => n + r.cases, 0));
  }, 300_000);
});
