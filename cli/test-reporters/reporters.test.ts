import type { TestRunResult } from '../../engine/testing/types';
import { parseXml } from '../../test/support/xml';
import { formatJson } from './json';
import { formatJunit } from './junit';
import { formatPretty } from './pretty';
import { formatTap } from './tap';

const CWD = '/proj';
const SUITE = '/proj/tests/a.test.yaml';
const RULE = { file: '/proj/policy.yaml', line: 4, column: 5 };

const result: TestRunResult = {
  suites: [
    {
      file: SUITE,
      diagnostics: [],
      cases: [
        { suite: SUITE, name: 'lynch denied', location: { file: SUITE, line: 3, column: 5 }, passed: true, failures: [], decidedBy: [{ id: 'no-writes', source: RULE }], outcome: 'deny', event: null, response: null, durationMs: 2 },
        {
          suite: SUITE, name: 'ba <allowed>', location: { file: SUITE, line: 7, column: 5 }, passed: false,
          failures: [{ key: 'outcome', message: 'outcome differs', expected: 'none', actual: 'deny', location: { file: SUITE, line: 10, column: 7 } }],
          decidedBy: [{ id: 'no-writes', source: RULE }], outcome: 'deny', event: null, response: null, durationMs: 3,
        },
      ],
    },
    {
      file: '/proj/tests/broken.test.yaml',
      diagnostics: [{ code: 'yaml-syntax', severity: 'error', message: 'Unexpected end', file: '/proj/tests/broken.test.yaml', line: 2, column: 1 }],
      cases: [],
    },
  ],
  passed: 1,
  failed: 1,
  coverage: { rules: [{ id: 'no-writes', source: RULE, exercised: 2, decided: 2 }, { id: 'unused', source: { ...RULE, line: 9 }, exercised: 0, decided: 0 }], total: 2, decided: 1, percent: 50 },
  durationMs: 5,
};

describe('pretty', () => {
  it('lists cases, explains failures with positions and ends with the summary line', () => {
    expect(formatPretty(result, { cwd: CWD, coverage: true, threshold: 80 })).toBe([
      'tests/a.test.yaml',
      '  ✓ lynch denied',
      '  ✗ ba <allowed>',
      '      at tests/a.test.yaml:7:5',
      '      outcome differs (expected at tests/a.test.yaml:10:7)',
      '      - none',
      '      + deny',
      '      decided by: no-writes (policy.yaml:4:5)',
      'tests/broken.test.yaml',
      '  tests/broken.test.yaml:2:1: error yaml-syntax: Unexpected end',
      '',
      'coverage: 1/2 rules decided in some case (50%)',
      'coverage 50% is below the threshold of 80%',
      '  never exercised (no case made them a candidate):',
      '    unused (policy.yaml:9:5)',
      '',
      '1 passed, 1 failed',
      '',
    ].join('\n'));
  });

  it('colours ✓, ✗, expected and actual when asked, never the summary line', () => {
    const coloured = formatPretty(result, { cwd: CWD, coverage: false, color: true });
    expect(coloured).toContain('  \u001b[32m✓\u001b[39m lynch denied\n');
    expect(coloured).toContain('  \u001b[31m✗\u001b[39m ba <allowed>\n');
    expect(coloured).toContain('      \u001b[32m- none\u001b[39m\n      \u001b[31m+ deny\u001b[39m\n');
    expect(coloured.endsWith('\n1 passed, 1 failed\n')).toBe(true);
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(formatPretty(result, { cwd: CWD, coverage: false }));
    expect(formatPretty(result, { cwd: CWD, coverage: false })).not.toMatch(/\u001b/);
  });

  it('shows only failures, load errors, a coverage below the threshold and the summary with quiet', () => {
    expect(formatPretty(result, { cwd: CWD, coverage: true, threshold: 80, quiet: true })).toBe([
      'tests/a.test.yaml',
      '  ✗ ba <allowed>',
      '      at tests/a.test.yaml:7:5',
      '      outcome differs (expected at tests/a.test.yaml:10:7)',
      '      - none',
      '      + deny',
      '      decided by: no-writes (policy.yaml:4:5)',
      'tests/broken.test.yaml',
      '  tests/broken.test.yaml:2:1: error yaml-syntax: Unexpected end',
      '',
      'coverage: 1/2 rules decided in some case (50%)',
      'coverage 50% is below the threshold of 80%',
      '',
      '1 passed, 1 failed',
      '',
    ].join('\n'));
    const passing: TestRunResult = { ...result, suites: [{ ...result.suites[0], cases: [result.suites[0].cases[0]] }], passed: 1, failed: 0 };
    expect(formatPretty(passing, { cwd: CWD, coverage: true, threshold: 50, quiet: true })).toBe('1 passed, 0 failed\n');
  });

  it('leaves coverage out unless asked', () => {
    expect(formatPretty(result, { cwd: CWD, coverage: false })).not.toContain('coverage');
  });
});

describe('tap', () => {
  it('writes TAP 13 with one point per case and per broken suite', () => {
    expect(formatTap(result, { cwd: CWD, coverage: false })).toBe([
      'TAP version 13',
      '1..3',
      'ok 1 - tests/a.test.yaml > lynch denied',
      'not ok 2 - tests/a.test.yaml > ba <allowed>',
      '  ---',
      '  at: "tests/a.test.yaml:7:5"',
      '  message: |-',
      '    outcome differs (expected at tests/a.test.yaml:10:7)',
      '    - none',
      '    + deny',
      '    decided by: no-writes (policy.yaml:4:5)',
      '  ...',
      'not ok 3 - tests/broken.test.yaml (load)',
      '  ---',
      '  message: |-',
      '    tests/broken.test.yaml:2:1: error yaml-syntax: Unexpected end',
      '  ...',
      '# 1 passed, 1 failed',
      '',
    ].join('\n'));
  });
});

describe('junit', () => {
  it('writes escaped JUnit XML with failures and load errors', () => {
    expect(formatJunit(result, { cwd: CWD, coverage: false })).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="policy test" tests="3" failures="1" errors="1" time="0.005">',
      '  <testsuite name="tests/a.test.yaml" tests="2" failures="1" errors="0" time="0.005">',
      '    <testcase name="lynch denied" classname="tests/a.test.yaml" file="tests/a.test.yaml" line="3" time="0.002"/>',
      '    <testcase name="ba &lt;allowed&gt;" classname="tests/a.test.yaml" file="tests/a.test.yaml" line="7" time="0.003">',
      '      <failure message="outcome differs" type="outcome">at tests/a.test.yaml:7:5',
      'outcome differs (expected at tests/a.test.yaml:10:7)',
      '- none',
      '+ deny',
      'decided by: no-writes (policy.yaml:4:5)</failure>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="tests/broken.test.yaml" tests="1" failures="0" errors="1" time="0.000">',
      '    <testcase name="(load)" classname="tests/broken.test.yaml" file="tests/broken.test.yaml" time="0">',
      '      <error message="Unexpected end" type="yaml-syntax">tests/broken.test.yaml:2:1: error yaml-syntax: Unexpected end</error>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'));
  });
});

describe('junit, whatever names and messages hold', () => {
  const nasty = 'a & b "c" \'d\' <e> ]]> f\u0001g\u001b[31mh\u0000 \ud800 \udc00x \uFFFE 😀 tab\there\r\nend';
  const safe = 'a & b "c" \'d\' <e> ]]> f\\u0001g\\u001b[31mh\\u0000 \uFFFD \uFFFDx \uFFFD 😀 tab\there\r\nend';
  const kase = result.suites[0].cases[1];
  const wild: TestRunResult = {
    ...result,
    suites: [
      {
        file: `/proj/tests/${nasty}.test.yaml`,
        diagnostics: [],
        cases: [
          { ...kase, name: nasty, failures: [{ key: 'stdout', message: nasty, expected: nasty, actual: ']]>', location: kase.location }] },
          { ...kase, name: `${nasty} (error)`, failures: [], error: { code: 'event-malformed', severity: 'error', message: nasty } },
        ],
      },
      { ...result.suites[1], diagnostics: [{ ...result.suites[1].diagnostics[0], message: nasty }] },
    ],
  };
  const xml = formatJunit(wild, { cwd: CWD, coverage: false });

  it('is well-formed XML to a strict parser', () => {
    expect(parseXml(xml).errors).toEqual([]);
  });

  it('keeps every name and message as written, but for what XML cannot hold', () => {
    const { elements } = parseXml(xml);
    const cases = elements.filter((e) => e.name === 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual([safe, `${safe} (error)`, '(load)']);
    expect(cases[0].attributes.classname).toBe(`tests/${safe}.test.yaml`);
    const failure = elements.find((e) => e.name === 'failure')!;
    expect(failure.attributes.message).toBe(safe);
    expect(failure.text).toContain(`- ${safe.split('\n')[0]}`);
    expect(failure.text).toContain('+ ]]>');
    expect(elements.filter((e) => e.name === 'error').map((e) => e.attributes.message)).toEqual([safe, safe]);
  });
});

describe('json', () => {
  it('writes the whole run as one document with relative paths', () => {
    expect(JSON.parse(formatJson(result, { cwd: CWD, coverage: false, threshold: 80 }))).toEqual({
      summary: { passed: 1, failed: 1 },
      suites: [
        {
          file: 'tests/a.test.yaml',
          diagnostics: [],
          cases: [
            { name: 'lynch denied', file: 'tests/a.test.yaml', line: 3, column: 5, passed: true, outcome: 'deny', rules: [{ id: 'no-writes', file: 'policy.yaml', line: 4, column: 5 }], failures: [], durationMs: 2 },
            {
              name: 'ba <allowed>', file: 'tests/a.test.yaml', line: 7, column: 5, passed: false, outcome: 'deny',
              rules: [{ id: 'no-writes', file: 'policy.yaml', line: 4, column: 5 }],
              failures: [{ key: 'outcome', message: 'outcome differs', expected: 'none', actual: 'deny', line: 10, column: 7 }],
              durationMs: 3,
            },
          ],
        },
        {
          file: 'tests/broken.test.yaml',
          diagnostics: [{ code: 'yaml-syntax', severity: 'error', message: 'Unexpected end', file: 'tests/broken.test.yaml', line: 2, column: 1 }],
          cases: [],
        },
      ],
      coverage: {
        total: 2, decided: 1, percent: 50, threshold: 80,
        rules: [{ id: 'no-writes', file: 'policy.yaml', line: 4, exercised: 2, decided: 2 }, { id: 'unused', file: 'policy.yaml', line: 9, exercised: 0, decided: 0 }],
      },
      durationMs: 5,
    });
  });
});
