import * as path from 'path';
import { ATTR, SEMCONV, decisionAttributes, decisionBody, decisionSeverity, decisionSpan, isDecisionRecord, type OtlpDecisionRecord } from './record-attributes';

const record: OtlpDecisionRecord = {
  time: '2026-11-24T00:00:01.000Z', session_id: 's', event: 'PreToolUse', tool: 'Bash', agent: 'lynch', outcome: 'deny',
  rules: ['a', 'b'], reason: 'no.', paths: [], duration_ms: 4.25,
};

it('the semantic-conventions names are the package\'s own', () => {
  // The incubating entry (host.name, user.*, session.id) is not reachable through tsc's node resolution: read it by path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const semconv = require(path.join(__dirname, '..', '..', 'node_modules', '@opentelemetry', 'semantic-conventions', 'dist', 'index-incubating.cjs')) as Record<string, string>;
  expect(SEMCONV).toEqual({
    serviceName: semconv.ATTR_SERVICE_NAME, serviceVersion: semconv.ATTR_SERVICE_VERSION, hostName: semconv.ATTR_HOST_NAME,
    userName: semconv.ATTR_USER_NAME, userId: semconv.ATTR_USER_ID, sessionId: semconv.ATTR_SESSION_ID,
  });
});

it('attributes: only what the record holds', () => {
  expect(decisionAttributes(record, 'shop')).toEqual({
    [ATTR.project]: 'shop', [ATTR.event]: 'PreToolUse', [ATTR.outcome]: 'deny', 'session.id': 's', [ATTR.agent]: 'lynch',
    [ATTR.tool]: 'Bash', [ATTR.rule]: 'a', [ATTR.rules]: ['a', 'b'], [ATTR.reason]: 'no.', [ATTR.durationMs]: 4.25,
  });
  const bare = { ...record, session_id: null, agent: null, tool: null, rules: [], reason: null, duration_ms: undefined };
  expect(Object.keys(decisionAttributes(bare, 'p'))).toEqual([ATTR.project, ATTR.event, ATTR.outcome]);
  expect(decisionAttributes({ ...record, bypass: { env: 'HP_OFF', value: '1', rules: ['a'] }, fail_open: true, command: 'rm -rf x', prev: 'ff' }, 'p'))
    .toMatchObject({ [ATTR.bypass]: 'HP_OFF=1', [ATTR.failOpen]: true, [ATTR.command]: 'rm -rf x', [ATTR.prev]: 'ff' });
});

it.each([
  ['deny', undefined, 13, 'WARN'],
  ['block', undefined, 13, 'WARN'],
  ['ask', undefined, 9, 'INFO'],
  ['allow', undefined, 9, 'INFO'],
  ['none', ['fact-error: x'], 17, 'ERROR'],
  ['deny', ['fact-error: x'], 17, 'ERROR'],
])('severity of %s with errors %j', (outcome, errors, number, text) => {
  expect(decisionSeverity({ outcome, errors })).toEqual({ number, text });
});

it('body and span', () => {
  expect(decisionBody(record)).toBe('deny PreToolUse Bash: no.');
  expect(decisionBody({ ...record, tool: null, reason: null, outcome: 'none', event: 'Stop' })).toBe('none Stop');
  const end = Date.parse(record.time);
  expect(decisionSpan(record)).toEqual({ name: 'PreToolUse Bash', startMs: end - 4.25, endMs: end, error: null });
  expect(decisionSpan({ ...record, tool: null, duration_ms: undefined, errors: ['e'] })).toEqual({ name: 'PreToolUse', startMs: end, endMs: end, error: 'e' });
});

it('isDecisionRecord', () => {
  expect(isDecisionRecord(record)).toBe(true);
  expect(isDecisionRecord({ ...record, time: 'yesterday' })).toBe(false);
  expect(isDecisionRecord({ ...record, rules: 'a' })).toBe(false);
  expect(isDecisionRecord(null)).toBe(false);
});

it('docs/operations.md lists exactly the attributes sent', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const doc = (require('fs') as typeof import('fs')).readFileSync(path.join(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8');
  const start = doc.indexOf('## OpenTelemetry');
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  const rowNames = (heading: string) => {
    const table = section.slice(section.indexOf(heading), section.indexOf('\n\n', section.indexOf('| --- |', section.indexOf(heading))));
    return table.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => [...l.split('|')[1].matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]));
  };
  expect(rowNames('Attributes of each log record').sort()).toEqual([...Object.values(ATTR), SEMCONV.sessionId].sort());
  expect(rowNames('Resource attributes')).toEqual(expect.arrayContaining([SEMCONV.serviceName, SEMCONV.serviceVersion, SEMCONV.hostName, SEMCONV.userName, SEMCONV.userId]));
});
