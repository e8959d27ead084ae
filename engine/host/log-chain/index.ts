/**
 * The decision log's room for its hash chain and its readers: appending a chained line
 * under the log's lock (append.ts, lock.ts, tail.ts, last-line.ts), from a long-lived
 * process through an appender that keeps the log open and never waits (appender.ts), and
 * reading the log back, filtered or verified (read.ts). The chain itself, its notices and
 * the filters are core: engine/decision-log/.
 */
export { appendChainedLine, lockPathOf, type ChainedAppendResult } from './append';
export { createDecisionAppender, type AppendOutcome, type DecisionAppender, type DecisionAppenderOptions } from './appender';
export { lastLinePathOf } from './last-line';
export { acquireLogLock, tryLogLock, LOCK_HUNG_MS, LOCK_MAX_WAIT_MS, LOCK_STALE_MS, LOCK_WAIT_MS, SUSPECT_MS, type LogLock, type LogLockOptions } from './lock';
export { LogReadError, readDecisionLog, verifyDecisionLog, type DecisionLogRead, type LoggedDecision } from './read';
export { GENESIS, lineHash } from '../../decision-log/chain';
export type { DecisionLogFilter } from '../../decision-log/filter';
export type { ChainBreak, ChainReport } from '../../decision-log/verify';
