/**
 * Validates a parsed suite document against policy-test.schema.json and turns schema
 * errors into diagnostics at the right line:column.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import suiteSchema from '../../policy-test.schema.json';
import { diagnostic } from '../diagnostics';
import { seedTime } from '../memory/in-memory';
import type { Diagnostic, SourceMap } from '../types';
import { collapseErrors, type SchemaProblem } from '../validate/collapse';
import { didYouMean } from '../validate/suggest';

let compiled: ValidateFunction | null = null;

function suiteValidator(): ValidateFunction {
  if (!compiled) compiled = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: false }).compile(suiteSchema);
  return compiled;
}

/**
 * Schema diagnostics of a suite document, in document order; [] when it is valid.
 * @example validateSuiteDoc({ cases: [{ name: 'x' }] }, map) // [{ code: 'schema-required', message: 'Missing key "expect"', line: 1, ... }]
 */
export function validateSuiteDoc(doc: unknown, map: SourceMap): Diagnostic[] {
  const validate = suiteValidator();
  if (validate(doc)) return eventSourceProblems(doc, map);
  const problems = collapseErrors(validate.errors ?? []);
  return problems.map((p) => toDiagnostic(p, map));
}

function toDiagnostic(problem: SchemaProblem, map: SourceMap): Diagnostic {
  if (problem.kind === 'alternatives') {
    return diagnostic('schema-type', `Expected ${problem.expected.join(' or ')}`, map.locate(problem.instancePath));
  }
  const e: ErrorObject = problem.error;
  const params = e.params as Record<string, unknown>;
  const where = e.instancePath || 'the suite';
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return diagnostic('schema-unknown-key', `Unknown key "${key}"`, map.locate(`${e.instancePath}/${escape(key)}`, 'key'), didYouMean(key, known));
    }
    case 'required':
      return diagnostic('schema-required', `Missing key "${String(params.missingProperty)}" in ${where}`, map.locate(e.instancePath));
    case 'type':
      return diagnostic('schema-type', `${where} must be ${String(params.type)}`, map.locate(e.instancePath));
    case 'enum':
      return diagnostic('schema-enum', `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`, map.locate(e.instancePath));
    default:
      return diagnostic('schema-invalid', `${where} ${e.message ?? 'is invalid'}`, map.locate(e.instancePath));
  }
}

/** Temp project files must stay inside the temp project. */
function fileKeyProblems(files: unknown, pointer: string, map: SourceMap): Diagnostic[] {
  if (files === null || typeof files !== 'object') return [];
  return Object.keys(files)
    .filter((key) => /^([A-Za-z]:)?[\\/]/.test(key) || key.split(/[\\/]/).includes('..'))
    .map((key) => diagnostic('schema-invalid', `File "${key}" is outside the test project; use a project-relative path without ".."`, map.locate(`${pointer}/${escape(key)}`, 'key')));
}

/** A memory record's `at` must be an ISO time or `-N(m|h|d)`. */
function memoryProblems(memory: unknown, pointer: string, map: SourceMap): Diagnostic[] {
  if (!Array.isArray(memory)) return [];
  return memory.flatMap((r: { at?: unknown }, i) => (typeof r?.at === 'string' && seedTime(r.at, 0) === null
    ? [diagnostic('schema-invalid', `"${r.at}" is neither an ISO time nor a time before the case (-45m, -2h, -3d)`, map.locate(`${pointer}/${i}/at`))]
    : []));
}

/** Each case needs exactly one of event, event_json and event_file, and valid regexes. */
function eventSourceProblems(doc: unknown, map: SourceMap): Diagnostic[] {
  const suite = doc as { cases?: Array<Record<string, unknown>>; files?: object; memory?: unknown };
  const cases = suite.cases ?? [];
  const out: Diagnostic[] = [...fileKeyProblems(suite.files, '/files', map), ...memoryProblems(suite.memory, '/memory', map)];
  cases.forEach((c, i) => {
    out.push(...fileKeyProblems(c.files, `/cases/${i}/files`, map));
    out.push(...memoryProblems(c.memory, `/cases/${i}/memory`, map));
    const given = ['event', 'event_json', 'event_file'].filter((k) => c[k] !== undefined);
    if (given.length === 0) {
      out.push(diagnostic('schema-required', `Case "${String(c.name)}" needs one of event, event_json or event_file`, map.locate(`/cases/${i}`)));
    } else if (given.length > 1) {
      out.push(diagnostic('schema-invalid', `Case "${String(c.name)}" gives ${given.join(' and ')}; give only one`, map.locate(`/cases/${i}/${given[1]}`, 'key')));
    }
    const expect = (c.expect ?? {}) as Record<string, { regex?: unknown } | undefined>;
    for (const key of ['message', 'context', 'warning', 'stderr']) {
      const regex = expect[key]?.regex;
      if (typeof regex === 'string' && regexError(regex)) {
        out.push(diagnostic('invalid-regex', `${regexError(regex)}`, map.locate(`/cases/${i}/expect/${key}/regex`)));
      }
    }
    const records = (c.expect as { records?: Array<{ text?: { regex?: unknown } }> } | undefined)?.records ?? [];
    records.forEach((r, j) => {
      const regex = r?.text?.regex;
      if (typeof regex === 'string' && regexError(regex)) {
        out.push(diagnostic('invalid-regex', `${regexError(regex)}`, map.locate(`/cases/${i}/expect/records/${j}/text/regex`)));
      }
    });
  });
  return out;
}

function regexError(source: string): string | null {
  try {
    new RegExp(source);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
