/**
 * `policy explain`: one event's Decision and HookResponse as a report a person reads, or
 * as one JSON object. Pure: the command does the loading and evaluating.
 */
import { formatDiagnostic } from './diagnostics';
import { isBuiltInRule } from './self-protection';
import type { Decision, HookResponse, RecordDraft, RequirementCheck, RuleHit, RuleTrace, SourceLocation } from './types';

export interface ExplainInput {
  decision: Decision;
  response: HookResponse;
  /** How many of the team's rules the policy has (the ones not in the trace were not considered). */
  ruleCount: number;
  /** Absolute file paths are shown relative to this folder when inside it. */
  projectRoot?: string;
  /** Where the runner would export this decision to OpenTelemetry; absent when export is off or the decision is not recorded. */
  otlp?: ExplainOtlp;
}

/** The OTLP/HTTP URLs a recorded decision goes to, and what turned export on. */
export interface ExplainOtlp {
  logs: string | null;
  traces: string | null;
  from: 'log.otlp' | 'environment';
}

export interface ExplainJson {
  event: string;
  agent: string | null;
  tool: string | null;
  decision: Omit<Decision, 'event' | 'agent' | 'tool' | 'trace'>;
  rules: RuleTrace[];
  /** Rules of the policy that were not candidates for this event and tool. */
  notConsidered: number;
  output: HookResponse;
  /** Present when the runner would export the decision to OpenTelemetry. */
  otlp?: ExplainOtlp;
}

/**
 * The machine-readable explanation.
 * @example explainJson({ decision, response, ruleCount: 5 }).decision.outcome // 'deny'
 */
export function explainJson(input: ExplainInput): ExplainJson {
  const { event, agent, tool, trace: _all, ...rest } = input.decision;
  const trace = shownTrace(input.decision);
  return { event, agent, tool, decision: rest, rules: trace, notConsidered: notConsidered(input, trace), output: input.response, ...(input.otlp ? { otlp: input.otlp } : {}) };
}

/** The team's rules in the trace, and a built-in rule only when it fired (its list of protected files is noise otherwise). */
function shownTrace(d: Decision): RuleTrace[] {
  const fired = new Set(d.hits.map((h) => h.id));
  return d.trace.filter((t) => !isBuiltInRule(t) || fired.has(t.id));
}

function notConsidered(input: ExplainInput, trace: RuleTrace[]): number {
  return Math.max(0, input.ruleCount - trace.filter((t) => !isBuiltInRule(t)).length);
}

/**
 * The report: the event, each rule considered and why it fired or not, the decision and
 * the exact output the runner writes.
 * @example explainText({ decision, response, ruleCount: 5 }).split('\n')[0] // 'Event: PreToolUse, tool Bash, agent (none)'
 */
export function explainText(input: ExplainInput): string {
  const { decision: d, response } = input;
  const where = (loc: SourceLocation) => showLocation(loc, input.projectRoot);
  const lines: string[] = [];
  lines.push(`Event: ${d.event}, tool ${d.tool ?? '(none)'}, agent ${d.agent ?? '(none)'}`);
  const trace = shownTrace(d);
  lines.push(`Rules considered: ${trace.length}; not considered for this event and tool: ${notConsidered(input, trace)}`);
  for (const t of trace) lines.push(...traceLines(t, d.hits, d.records ?? [], where));
  lines.push('');
  lines.push(`Decision: ${d.outcome}`);
  for (const hit of d.decidedBy) lines.push(`  decided by ${hit.id} (${where(hit.source)}): ${hit.message}`);
  for (const c of d.contexts) lines.push(`  context: ${c}`);
  for (const w of d.warnings) lines.push(`  warning: ${w}`);
  if (d.bypass) lines.push(`  bypass: ${d.bypass.env}=${d.bypass.value} turned off ${d.bypass.rules.join(', ')}`);
  if (d.records || d.droppedRecords) lines.push(`  records: ${d.records?.length ?? 0} to store, ${d.droppedRecords ?? 0} dropped by the privacy filter`);
  for (const e of d.errors) lines.push(`  ${formatDiagnostic(e)}`);
  if (input.otlp) lines.push(`  exported to OpenTelemetry (${input.otlp.from}): logs ${input.otlp.logs ?? '(off)'}, traces ${input.otlp.traces ?? '(off)'}`);
  lines.push('');
  lines.push('Output (what `policy hook` writes):');
  lines.push(`  exit code: ${response.exitCode}`);
  lines.push(`  stdout: ${response.stdout === '' ? '(empty)' : response.stdout.replace(/\n$/, '')}`);
  lines.push(`  stderr: ${response.stderr === '' ? '(empty)' : indentRest(response.stderr.replace(/\n$/, ''), '          ')}`);
  return `${lines.join('\n')}\n`;
}

function traceLines(t: RuleTrace, hits: RuleHit[], records: RecordDraft[], where: (loc: SourceLocation) => string): string[] {
  const hit = hits.find((h) => h.id === t.id);
  // A rule that fired without a hit has no outcome: it only records.
  const status = t.status === 'fired' ? `fired: ${hit?.outcome ?? 'record'}` : t.status === 'not-matched' ? 'no match' : t.status;
  const lines = [`  ${t.id} (${where(t.source)}): ${status}`];
  if (t.failed) lines.push(`    ${t.failed.condition}: ${t.failed.detail}`);
  for (const check of t.requirements ?? []) lines.push(`    ${describeRequirement(check)}`);
  for (const [name, value] of Object.entries(t.values ?? {})) lines.push(`    let ${name} = ${JSON.stringify(value)}`);
  if (hit?.paths && hit.paths.length > 0) lines.push(`    paths: ${hit.paths.join(', ')}`);
  if (t.status === 'fired' && hit) lines.push(`    message: ${hit.message}`);
  for (const r of records) if (r.rule === t.id) lines.push(`    record ${r.kind} (importance ${r.importance}): ${JSON.stringify(r.text)}`);
  if (t.dropped) lines.push(`    dropped by the privacy filter: ${t.dropped} record(s)`);
  if (t.error) lines.push(`    ${formatDiagnostic(t.error)}`);
  return lines;
}

/**
 * One requirement check: the file it wanted, what was found and whether it passed.
 * @example describeRequirement({ file: 'L1.yaml', minBytes: 50, found: { path: 'a/L1.yaml', size: 12, mtimeMs: 0 }, ok: false })
 *   // 'require L1.yaml (>= 50 bytes): found a/L1.yaml, 12 bytes: unmet'
 */
export function describeRequirement(check: RequirementCheck): string {
  const found = check.found ? `found ${check.found.path}, ${check.found.size} bytes` : 'missing';
  return `require ${check.file} (>= ${check.minBytes} bytes): ${found}: ${check.ok ? 'met' : 'unmet'}`;
}

/** file:line:col, the file relative to the project root when inside it. */
function showLocation(loc: SourceLocation, projectRoot: string | undefined): string {
  let file = loc.file;
  if (projectRoot && file.startsWith(`${projectRoot.replace(/\/$/, '')}/`)) file = file.slice(projectRoot.replace(/\/$/, '').length + 1);
  return `${file}:${loc.line}:${loc.column}`;
}

function indentRest(text: string, indent: string): string {
  return text.split('\n').join(`\n${indent}`);
}
