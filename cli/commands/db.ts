/**
 * `policy db migrate|status`: the team's PostgreSQL database (HOOKPOLICY_DATABASE_URL).
 * migrate applies the schema's missing migrations (the shipper also does at its first
 * connection); status shows them, and this machine's outbox. docs/commands/db.md.
 */
import type { Command } from 'commander';
import { redactedUrl } from '../../engine/host/postgres/config';
import type { MigrationStatus, OutboxStatus } from '../../engine/host/postgres/commands';
import { CommanderError } from 'commander';
import { failOnDatabaseError, postgresApi, requiredDatabaseUrl } from '../postgres-access';
import { usageErrorsExit2 } from './explain';

interface DbOptions {
  json?: boolean;
}

/** Registers `policy db migrate` and `policy db status`. */
export function register(program: Command): void {
  const db = program
    .command('db')
    .description('the team\'s PostgreSQL database ($HOOKPOLICY_DATABASE_URL): apply the schema\'s migrations, show its status')
    .exitOverride(usageErrorsExit2);

  db.command('migrate')
    .description('apply the migrations the database lacks, in order, in one transaction')
    .option('--json', 'print JSON instead of text')
    .exitOverride(usageErrorsExit2)
    .action(async (options: DbOptions) => {
      const url = requiredDatabaseUrl('db migrate');
      const api = postgresApi();
      let result: { applied: number[]; status: MigrationStatus };
      try {
        result = await api.migrateDatabase(url);
      } catch (e) {
        return failOnDatabaseError('db migrate', e);
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ database: redactedUrl(url), ...result }, null, 2)}\n`);
        return;
      }
      const names = new Map(result.status.applied.map((m) => [m.id, m.name]));
      process.stdout.write(result.applied.length === 0
        ? `${redactedUrl(url)}: up to date (${plural(result.status.applied.length, 'migration')} applied)\n`
        : `${redactedUrl(url)}: applied ${result.applied.map((id) => `${id} (${names.get(id) ?? ''})`).join(', ')}\n`);
    });

  db.command('status')
    .description('the migrations applied and pending, and this machine\'s outbox (records waiting, the shipper\'s last state); exit 1 when migrations are pending')
    .option('--json', 'print JSON instead of text')
    .exitOverride(usageErrorsExit2)
    .action(async (options: DbOptions) => {
      const url = requiredDatabaseUrl('db status');
      const api = postgresApi();
      const outbox = api.outboxStatus(process.env);
      let status: MigrationStatus;
      try {
        status = await api.databaseStatus(url);
      } catch (e) {
        // The outbox first: when the database is down, what waits here is the useful part.
        if (!options.json) process.stdout.write(formatOutbox(outbox));
        return failOnDatabaseError('db status', e);
      }
      if (options.json) process.stdout.write(`${JSON.stringify({ database: redactedUrl(url), ...status, outbox }, null, 2)}\n`);
      else process.stdout.write(formatStatus(url, status) + formatOutbox(outbox));
      if (status.pending.length > 0) throw new CommanderError(1, 'policy.exit', '');
    });
}

function formatStatus(url: string, s: MigrationStatus): string {
  const state = s.pending.length === 0 ? 'up to date' : `${plural(s.pending.length, 'migration')} pending (policy db migrate applies them)`;
  const lines = [`database  ${redactedUrl(url)}`, `schema    ${state}`];
  for (const m of s.applied) lines.push(`  ${m.id}  ${m.name}  applied ${m.applied_at}`);
  for (const m of s.pending) lines.push(`  ${m.id}  ${m.name}  pending`);
  if (s.unknown.length > 0) lines.push(`  applied by a newer hookpolicy: ${s.unknown.join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function formatOutbox(o: OutboxStatus): string {
  if (o.folder === null) return 'outbox    none (no cache folder only this user can write)\n';
  const lines = [`outbox    ${plural(o.waiting, 'record')} waiting, ${o.rejected} set aside (${o.folder})`];
  if (o.shipper) lines.push(`shipper   ${o.shipper.ok ? 'ok' : `failing: ${o.shipper.error ?? 'unknown error'}`} (${o.shipper.at})`);
  return `${lines.join('\n')}\n`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
