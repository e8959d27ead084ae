/**
 * `policy memory list|search|show|forget|export`: the project's memory store for people
 * (docs/memory.md). Each brings the index up to date with the journal first, prints text
 * or, with --json, JSON; `show` is what the /mem-search slash command runs.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { ForgetFilter, ListFilter } from '../../engine/host/memory/memory-index';
import { formatRecordDetail, formatRecordList, formatSearchResults } from '../formatters/memory';
import { collect, commandStore, fail, timeAgo, wholeNumber, withIndex, type StoreCommandOptions } from '../memory-access';
import { usageErrorsExit2 } from './explain';
import { projectRootOf } from './init';
import { DATABASE_URL_VAR, databaseUrl, projectName } from '../../engine/host/postgres/config';
import { failOnDatabaseError, postgresApi, requiredDatabaseUrl } from '../postgres-access';

interface SearchOptions extends StoreCommandOptions {
  limit: number;
  minRelevance: number;
  team?: boolean;
  local?: boolean;
}

interface FilterOptions extends StoreCommandOptions {
  kind?: string;
  session?: string;
  agent?: string;
  since?: number;
  limit?: number;
}

/** Registers `policy memory` and its subcommands. */
export function register(program: Command): void {
  const memory = program
    .command('memory')
    .description('list, search, show, forget and export what the policy\'s rules recorded (the project\'s memory store)')
    .exitOverride(usageErrorsExit2);

  withStoreOptions(withFilters(memory.command('list').description('the newest records, one line each')))
    .option('--limit <n>', 'at most this many records (default 50)', wholeNumber(1, 100_000), 50)
    .action((options: FilterOptions) => {
      const records = withIndex(commandStore(options, 'memory list').store, 'memory list', (index) => index?.list(listFilter(options)) ?? []);
      print(options, records, formatRecordList);
    });

  withStoreOptions(memory.command('search').description('records whose text matches the words, best first, with their relevance (0-1]')
    .argument('<words...>', 'the text to look for'))
    .option('--limit <n>', 'at most this many results (default 10)', wholeNumber(1, 1000), 10)
    .option('--min-relevance <r>', 'leave out results below this relevance (0 to 1)', relevance, 0)
    .option('--team', 'with $HOOKPOLICY_DATABASE_URL: every project\'s records in the team database, not only this one\'s')
    .option('--local', 'search this machine\'s store even when $HOOKPOLICY_DATABASE_URL is set')
    .action(async (words: string[], options: SearchOptions) => {
      // With a team database, its full-text search answers (docs/memory.md#search-in-the-team-database).
      if (!options.local && databaseUrl(process.env) !== null) return searchTeam(words.join(' '), options);
      if (options.team) fail('memory search', `--team searches the team database: set ${DATABASE_URL_VAR}`);
      const found = withIndex(commandStore(options, 'memory search').store, 'memory search', (index) => index?.search(words.join(' '), options.limit) ?? [])
        .filter((r) => r.relevance >= options.minRelevance);
      print(options, found.map((r) => ({ ...r.record, relevance: r.relevance })), () => formatSearchResults(found));
    });

  withStoreOptions(memory.command('show').description('one record in full, by the id list and search show (#12 or 12)')
    .argument('<id>', 'the record id'))
    .action((id: string, options: StoreCommandOptions) => {
      const n = recordId(id, 'memory show');
      const record = withIndex(commandStore(options, 'memory show').store, 'memory show', (index) => index?.get(n) ?? null);
      if (!record) fail('memory show', `no record #${n} in the memory store (policy memory list shows the ids)`);
      print(options, record, formatRecordDetail);
    });

  withStoreOptions(withFilters(memory.command('forget').description('delete records from the store: by id, or every record the options select')
    .argument('[ids...]', 'record ids (#12 or 12)')))
    .option('--before <when>', 'records older than a duration (30m, 12h, 7d) or a date (2026-01-15)', timeAgo(Date.now()))
    .option('--all', 'every record')
    .action((ids: string[], options: FilterOptions & { before?: number; all?: boolean }) => {
      const filter: ForgetFilter = { ...listFilter(options), ...(ids.length > 0 ? { ids: ids.map((i) => recordId(i, 'memory forget')) } : {}) };
      if (options.before !== undefined) filter.beforeMs = options.before;
      if (Object.keys(filter).length === 0 && !options.all) fail('memory forget', 'say which records: ids, --kind, --session, --agent, --since, --before, or --all for every record');
      const forgotten = withIndex(commandStore(options, 'memory forget').store, 'memory forget', (index) => index?.forget(filter) ?? 0);
      print(options, { forgotten }, () => `forgot ${forgotten} record${forgotten === 1 ? '' : 's'}\n`);
    });

  withStoreOptions(withFilters(memory.command('export').description('every record the options select, oldest first, as JSON lines (--json: one JSON array)')))
    .action((options: FilterOptions) => {
      withIndex(commandStore(options, 'memory export').store, 'memory export', (index) => {
        const records = index ? index.each(listFilter(options)) : [][Symbol.iterator]();
        if (options.json) {
          process.stdout.write(`${JSON.stringify([...records], null, 2)}\n`);
          return;
        }
        // One line per record as it is read: an export of a large store never sits in memory whole.
        for (const r of records) process.stdout.write(`${JSON.stringify(r)}\n`);
      });
    });
}

/**
 * `memory search` in the team database: PostgreSQL's full-text search, this project's
 * records (by its name there) unless --team; the same lines, or JSON with each record's
 * project, host and user.
 */
async function searchTeam(query: string, options: SearchOptions): Promise<void> {
  const url = requiredDatabaseUrl('memory search');
  const project = options.team ? null : projectName(process.env, projectRootOf(options));
  let found;
  try {
    found = await postgresApi().searchDatabase(url, query, { project, limit: options.limit });
  } catch (e) {
    return failOnDatabaseError('memory search', e);
  }
  const kept = found.filter((r) => r.relevance >= options.minRelevance);
  print(options, kept.map((r) => ({ ...r.record, relevance: r.relevance, project: r.project, host: r.host, user: r.user })), () => formatSearchResults(kept));
}

function withFilters(command: Command): Command {
  return command
    .option('--kind <kind>', 'records of this kind only')
    .option('--session <id>', 'records of this session only')
    .option('--agent <name>', 'records of this agent only')
    .option('--since <when>', 'records at or after a duration back from now (30m, 12h, 7d) or a date (2026-01-15)', timeAgo(Date.now()));
}

function withStoreOptions(command: Command): Command {
  return command
    .option('--json', 'print JSON instead of text')
    .option('-c, --config <file>', 'policy file, for settings.memory (repeatable; default: as the runner finds it)', collect, [])
    .option('--project-dir <dir>', 'project root (default: $CLAUDE_PROJECT_DIR, else the current folder)')
    .exitOverride(usageErrorsExit2);
}

function listFilter(options: FilterOptions): ListFilter {
  const filter: ListFilter = {};
  if (options.kind !== undefined) filter.kind = options.kind;
  if (options.session !== undefined) filter.session = options.session;
  if (options.agent !== undefined) filter.agent = options.agent;
  if (options.since !== undefined) filter.sinceMs = options.since;
  if (options.limit !== undefined) filter.limit = options.limit;
  return filter;
}

/** `12` or `#12` as a number; a usage error naming the command otherwise. */
function recordId(text: string, command: string): number {
  const m = /^#?(\d{1,15})$/.exec(text.trim());
  if (!m) return fail(command, `"${text}" is not a record id (a number, as list and search show it: #12)`);
  return Number(m[1]);
}

function relevance(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('a number from 0 to 1');
  return n;
}

function print<T>(options: { json?: boolean }, value: T, text: (value: T) => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : text(value));
}
