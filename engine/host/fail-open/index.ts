/**
 * The fail-open counter, one room: every answer the runner gave without judging the event
 * (a missing or broken policy, a cache error, a deadline, a malformed event, an internal
 * error) is one line of a per-user file in the trusted cache folder, so a guard that fails
 * open is counted even when the policy itself cannot be read. See docs/operations.md.
 *
 * - record.ts: the runner's side (the failure path only): one O_APPEND write;
 * - read.ts: `readFailOpens`, for `policy stats`, `policy report` and the exporters.
 */
export { FAIL_OPEN_FILE, failOpenFolder, failOpenRecord, recordFailOpen, type FailOpenRecord, type RecordFailOpenOptions } from './record';
export { readFailOpens, type FailOpenReport, type ReadFailOpensOptions } from './read';
