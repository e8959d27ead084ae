/**
 * hookpolicy's public API: the pipeline's stages in order (load -> validate -> compile ->
 * evaluate -> render), their data types, and the host functions that connect them to
 * the file system. Anything not exported here is internal.
 *
 * @example
 *   const reader = createFsReader(defaultPackDir());
 *   const { policy } = buildPolicy(['/p/.claude/policies.yaml'], reader);
 *   const decision = await evaluate(policy!, event, { projectRoot: '/p', env: process.env, facts: createFileFacts('/p') });
 *   const { stdout, exitCode } = renderResponse(decision, { onError: policy!.settings.onError });
 */

// Data of every stage.
export { OUTCOMES } from './types';
export type {
  SourceLocation, Severity, Diagnostic, Outcome, RawPolicyDoc, RawSettings, RawAgents, RawLet, RawRequirement, RawRule,
  SourceMap, LoadedFile, CompiledPolicy, CompiledSettings, CompiledBypass, CompiledLog, CompiledAgents, RegexSource,
  CompiledLet, CompiledRequirement, CompiledPathFilter, CompiledRule, RuleIndex, HookEvent, FileFact, FileIdentity, Facts,
  EvaluationContext, RuleHit, RequirementCheck, RuleStatus, RuleTrace, FinalOutcome, Decision, HookResponse,
  RawRecord, CompiledRecord, CompiledMemorySettings, CompiledMemoryQuery, LetKind, MemoryLetKind,
  RecordDraft, MemoryRecord, MemoryScope, MemoryWho, MemoryFacts,
} from './types';

// Claude Code's per-event contract and the diagnostic codes.
export { eventProtocols, EVENT_NAMES, protocolFor, outcomeSupport } from './protocol';
export type { Audience, BlockChannel, EventProtocol, OutcomeSupport } from './protocol';
export { DIAGNOSTIC_CODES, diagnostic, formatDiagnostic, docsUrl, hasErrors } from './diagnostics';
export type { DiagnosticCodeInfo, BuiltinDiagnosticCode } from './diagnostics';

// The pipeline.
export { parsePolicyText, loadPolicyFiles, memoryReader } from './load';
export type { ParseResult, PolicyReader, LoadResult } from './load';
export { validatePolicyFile, POLICY_SCHEMA } from './validate';
export { compilePolicy } from './compile';
export type { CompileResult } from './compile';
export { buildPolicy } from './build-policy';
export type { BuildResult } from './build-policy';
export { buildRuleIndex, candidateRules } from './rule-index';
export { evaluate, evaluateNow } from './evaluate';
export { renderResponse, renderFailure } from './render';
// Memory in core: the privacy filter of `record`, and a store held in memory (what `policy test` gives rules).
export { privacyMatch, DEFAULT_PRIVACY } from './memory/privacy';
export { InMemoryMemory, memoryRecords, memorySeeds } from './memory/in-memory';
export type { MemorySeed } from './memory/in-memory';
export type { RenderOptions } from './render';

// The authoring tools' cores: lint, explain, init's settings entries, Claude Code's matcher.
export { lintPolicy, lintSources, LINT_CHECKS, parseClaudeSettings, mergeClaudeSettings } from './lint';
export type { LintCheck, LintContext, LintOptions, LintRule, LintResult, ClaudeSettings } from './lint';
export { explainText, explainJson } from './explain';
export type { ExplainInput, ExplainJson } from './explain';
export { planHooks, describePlan } from './init/plan';
export { installHooks, uninstallHooks } from './init/merge';
export { checkDrift } from './init/drift';
export type { DriftItem, DriftKind } from './init/drift';
export { matcherAccepts } from './matcher';

// The host layer: file system, cache, decision log.
export { createFsReader, defaultPackDir } from './host/fs-reader';
export type { RecordingReader } from './host/fs-reader';
export { compilePolicyFiles } from './host/compile-entry';
export type { CompileResult as CompileFilesResult } from './host/compile-entry';
export { createFileFacts } from './host/file-facts';
export type { FileFactsOptions } from './host/file-facts';
export { discoverPolicyFiles, DEFAULT_POLICY_FILES } from './host/discover';
export { resolveProjectRoot, toAbsolutePosix } from './host/project-root';
export { loadPolicy, loadPolicyForEvent, lastArtefact } from './host/cache';
export type { CachedArtefact, LoadPolicyOptions, LoadPolicyResult, PolicyCompiler } from './host/cache';
export { cacheDirectories, cacheFileName } from './host/cache';
export { logCategories, buildDecisionRecord, appendDecisionRecord, recordDecision } from './host/decision-log';
export type { DecisionRecord, RecordDecisionOptions } from './host/decision-log';
export { readDecisionLog, verifyDecisionLog, GENESIS } from './host/log-chain';
export type { DecisionLogRead, LoggedDecision, DecisionLogFilter, ChainReport, ChainBreak } from './host/log-chain';
export { verifyChain } from './decision-log/verify';
export { sendWebhook } from './host/webhook';
export type { WebhookEnvelope } from './host/webhook';
export { ENGINE_VERSION, PACKAGE_VERSION } from './host/engine-version';
