import path from 'node:path';
import { RETENTION_RULES, ROLES, type RetentionRule, type Role } from '@schlosstreffen/shared';
import { loadDatabaseUrl, loadScheduleConfig } from '../core/config.js';
import { ensureDatabase, initOrm, migrate, type Orm } from '../core/db/orm.js';
import { User } from '../core/model/user.entity.js';
import { momentArgument } from './arguments.js';
import { BACKUP_USAGE } from './backup/usage.js';

const USAGE = `Usage: npm run cli -- <command>
  migrate                                  apply pending migrations
  migration:create [name]                  write a migration for entity changes (development)
  user:set-role <email> <user|reviewer|admin>
  user:reset-second-factor <email>         remove the account's second factor (a lost device) and end its
                                           sessions; the next staff sign-in sets a new one up
  seed                                     demo data (npm run seed)
  projections:rebuild [--verify]           replay the status log into vehicle.status and the public list
                                           (--verify only compares and exits 1 on any difference)
  user:delete <email>                      delete an account and everything that names the person
  user:confirm-email <email>               mark the account's address as confirmed (checked by other means)
  retention:run [--as-of <date>]           remove what the retention periods say is due (now, or at <date>)
  scheduler:tick [--as-of <date>]          run everything date-dependent that is due (now, or at <date>)
  media:clean [--no-wait]                  clean stored uploads (renditions without metadata) and show
                                           the progress; the worker does the work
  share-images:redraw [year]               queue the link previews of the listed cars (of that edition)
                                           after a release that changed their drawing; the worker draws
                                           those out of date anew and leaves the rest
  edition:list [--as-of <date>]            every edition with its dates and state
  edition:create <year> [--from <year>] [--start <iso>] [--end <iso>] [--deadline <yyyy-mm-dd>]
                                           the next edition from an earlier one (the newest without
                                           --from): dates that many years later, zones and periods copied
  edition:open <year> [--at <iso>]         applications of the edition open now (or at <iso>)
  edition:current <year> [--at <iso>]      the public site shows the edition from now (or from <iso>)
  award:open <year> [--as-of <date>]       open the visitors' award voting of the edition
  award:close <year> [--as-of <date>]      close it: the final totals are written, the certificates queued
  jury:judge <year> <email> [--as-of <date>]
                                           the account that confirmed that address judges every open
                                           class of the edition (until the jury's deadline)
  payments:import <file> [--year <year>] [--csv sparkasse|hibiscus]
                                           read a bank statement (camt.053/camt.052 XML or ZIP, or a
                                           bank's CSV export) into the edition's payments (the current
                                           one by default); the same file again books nothing twice
${BACKUP_USAGE}`;

function printReport(title: string, removed: Record<string, number>): void {
  console.log(title);
  for (const [rule, count] of Object.entries(removed)) {
    const label = rule in RETENTION_RULES ? RETENTION_RULES[rule as RetentionRule].label : rule;
    console.log(`  ${String(count).padStart(6)}  ${label} (${rule})`);
  }
}

/**
 * Runs a command's work on the database: 0 when it went through, 1 with the domain's German message
 * when it was refused (anything else is a fault and thrown); the connection is closed either way.
 */
async function withDatabase(work: (orm: Orm) => Promise<void>): Promise<number> {
  const orm = await initOrm(loadDatabaseUrl());
  const { DomainError } = await import('../core/errors.js');
  try {
    await work(orm);
    return 0;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    console.error(error.message);
    return 1;
  } finally {
    await orm.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'migrate': {
      const databaseUrl = loadDatabaseUrl();
      await ensureDatabase(databaseUrl);
      const orm = await initOrm(databaseUrl, { migrate: false });
      const done = await migrate(orm);
      console.log(done.length ? `applied: ${done.map((m) => m.name).join(', ')}` : 'database is up to date');
      await orm.close();
      return 0;
    }
    case 'migration:create': {
      const orm = await initOrm(loadDatabaseUrl());
      const result = await orm.migrator.create(
        path.resolve('api/src/core/db/migrations'),
        false,
        false,
        args[0],
      );
      console.log(result.fileName ? `written: ${result.fileName}` : 'no changes');
      await orm.close();
      return 0;
    }
    case 'user:set-role': {
      const [email, role] = args;
      if (!email || !ROLES.includes(role as Role)) {
        console.error(USAGE);
        return 2;
      }
      const orm = await initOrm(loadDatabaseUrl());
      const { setRole } = await import('../core/accounts/roles.js');
      const { systemAuditActor } = await import('../core/audit/audit.js');
      const user = await setRole(orm.em, email, role as Role, { actor: systemAuditActor('Kommandozeile') });
      await orm.close();
      if (!user) {
        console.error(`No user with email ${email}`);
        return 1;
      }
      console.log(`${user.email} is now ${role}; their sessions ended`);
      return 0;
    }
    case 'projections:rebuild': {
      const verify = args.includes('--verify');
      const orm = await initOrm(loadDatabaseUrl());
      const { rebuildProjections } = await import('../core/status-log/projections.js');
      const report = await rebuildProjections(orm.em.fork(), { write: !verify });
      await orm.close();
      console.log(
        `${report.vehicles} vehicles, ${report.events} status events replayed; ` +
          `${report.mismatches.length} status ${report.mismatches.length === 1 ? 'mismatch' : 'mismatches'}, ` +
          `${report.publicListDrift} public list ${report.publicListDrift === 1 ? 'row' : 'rows'} out of date`,
      );
      for (const edition of report.perEdition) {
        console.log(
          `  ${edition.year}: ${edition.vehicles} vehicles, ${edition.events} status events, ` +
            `${edition.mismatches} ${edition.mismatches === 1 ? 'mismatch' : 'mismatches'}`,
        );
      }
      for (const m of report.mismatches) {
        console.log(`  ${m.vehicleId} ${m.title}: stored ${m.projected}, log says ${m.replayed}`);
      }
      const clean = report.mismatches.length === 0 && report.publicListDrift === 0;
      if (verify) return clean ? 0 : 1;
      console.log(clean ? 'nothing to fix' : 'projections rebuilt from the log');
      return 0;
    }
    case 'user:reset-second-factor': {
      const [email] = args;
      if (!email) {
        console.error(USAGE);
        return 2;
      }
      const orm = await initOrm(loadDatabaseUrl());
      const { resetSecondFactor } = await import('../core/accounts/second-factor.js');
      const { systemAuditActor } = await import('../core/audit/audit.js');
      const user = await resetSecondFactor(orm.em, email, { actor: systemAuditActor('Kommandozeile') });
      await orm.close();
      if (!user) {
        console.error(`No user with email ${email}`);
        return 1;
      }
      console.log(`${user.email}: second factor removed, sessions ended; the next sign-in sets a new one up`);
      return 0;
    }
    case 'user:confirm-email': {
      const [email] = args;
      if (!email) {
        console.error(USAGE);
        return 2;
      }
      const orm = await initOrm(loadDatabaseUrl());
      const { confirmAddressByOperator } = await import('../core/accounts/auth.service.js');
      const confirmed = await confirmAddressByOperator(orm.em.fork(), email);
      await orm.close();
      if (!confirmed) {
        console.error(`No user with email ${email}`);
        return 1;
      }
      console.log(`${email.trim().toLowerCase()} is confirmed`);
      return 0;
    }
    case 'user:delete': {
      const [email] = args;
      if (!email) {
        console.error(USAGE);
        return 2;
      }
      const orm = await initOrm(loadDatabaseUrl());
      const em = orm.em.fork();
      const user = await em.findOne(User, { email: email.trim().toLowerCase() });
      const { deleteAccount } = await import('../core/accounts/account-deletion.js');
      const deleted = user ? await deleteAccount(em, user.id) : undefined;
      await orm.close();
      console.log(
        deleted
          ? `${email} deleted; its stored files are removed by the worker`
          : `No user with email ${email}`,
      );
      return deleted ? 0 : 1;
    }
    case 'retention:run':
    case 'scheduler:tick': {
      const asOf = momentArgument(args, '--as-of');
      if (!asOf) {
        console.error('--as-of needs a date, e.g. 2026-08-01 or 2026-08-01T12:00:00+02:00');
        return 2;
      }
      const config = loadScheduleConfig();
      const orm = await initOrm(config.databaseUrl);
      const schedule = {
        retention: config.retention,
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
      };
      if (command === 'retention:run') {
        const { runRetention } = await import('../core/privacy/retention.js');
        const removed = await runRetention(orm.em, { asOf, periods: config.retention });
        printReport(`Retention as of ${asOf.toISOString()}: removed`, removed);
      } else {
        const { runDueWork } = await import('../core/scheduler.js');
        const report = await runDueWork(orm.em, schedule, asOf);
        console.log(`Scheduler tick as of ${report.asOf}`);
        console.log(`  reminder mails queued: ${report.reminders}`);
        console.log(`  invitations lapsed: ${report.lapsed.length}`);
        console.log(`  payment reminders queued: ${report.paymentReminders}`);
        console.log(`  released for an unpaid fee: ${report.unpaidReleased.length}`);
        const { movedUp } = report;
        const stopped =
          movedUp.stopped === 'manual'
            ? ' (automatic moving up is off)'
            : movedUp.stopped === 'cutoff'
              ? ' (past the cut-off)'
              : '';
        console.log(
          `  moved up from the waitlist: ${movedUp.invited.length} (given-up places waiting: ${movedUp.pending}, free places: ${movedUp.free})${stopped}` +
            movedUp.invited
              .map((row) => `\n    start number ${row.startNumber}, zone ${row.parkingZone}`)
              .join(''),
        );
        console.log(`  visitor tickets from the waiting list: ${report.visitorsMovedUp}`);
        const { reviews } = report;
        console.log(
          `  reviews assigned: ${reviews.added}, moved: ${reviews.moved}, removed: ${reviews.removed}`,
        );
        console.log(
          `  visitors' award opened: ${report.award.opened.join(', ') || 'none'}, closed: ${report.award.closed.join(', ') || 'none'}`,
        );
        printReport('Retention removed', report.retention);
      }
      await orm.close();
      return 0;
    }
    case 'award:open':
    case 'award:close': {
      const year = args[0] ?? '';
      const at = momentArgument(args, '--as-of');
      if (!/^\d{4}$/.test(year) || !at) {
        console.error(USAGE);
        return 2;
      }
      const { openAward, closeAward } = await import('../core/award/award.js');
      return withDatabase(async (orm) => {
        if (command === 'award:open') {
          await openAward(orm.em, Number(year), at);
          console.log(`Voting of ${year} is open (as of ${at.toISOString()})`);
        } else {
          const { award, closedNow } = await closeAward(orm.em, Number(year), at);
          console.log(closedNow ? `Voting of ${year} closed` : `Voting of ${year} was closed already`);
          for (const row of award.results ?? [])
            console.log(`  ${row.rank}. start number ${row.startNumber}, ${row.votes} votes`);
        }
      });
    }
    case 'jury:judge': {
      const [year = '', email] = args;
      const at = momentArgument(args, '--as-of');
      if (!/^\d{4}$/.test(year) || !email || email.startsWith('--') || !at) {
        console.error(USAGE);
        return 2;
      }
      const { editionOfYear } = await import('../core/editions/editions.js');
      const { assertJuryOpen, makeJudge } = await import('../core/jury/jury-admin.js');
      const { JuryClass } = await import('../core/model/jury.entity.js');
      let refusal: string | null = null;
      const code = await withDatabase(async (orm) => {
        await orm.em.fork().transactional(async (tx) => {
          const edition = await editionOfYear(tx, Number(year));
          await assertJuryOpen(tx, edition, at);
          const user = await tx.findOne(User, { email: email.trim().toLowerCase() });
          // Nobody is made a judge by an address they have not confirmed.
          if (!user?.emailVerified) {
            refusal = user ? 'The account has not confirmed that address yet' : 'No account has that address';
            return;
          }
          await makeJudge(tx, edition, user.id);
          const classes = await tx.find(
            JuryClass,
            { edition: edition.id, closedAt: null },
            { orderBy: { position: 'asc' } },
          );
          console.log(
            `The account is a judge of ${edition.name}` +
              (classes.length
                ? ` in ${classes.length === 1 ? '1 class' : `${classes.length} classes`}: ${classes.map((c) => c.name).join(', ')}`
                : ' (no open classes: run the command again once they are set up)'),
          );
        });
      });
      if (refusal) {
        console.error(refusal);
        return 1;
      }
      return code;
    }
    case 'payments:import': {
      const [file] = args;
      const yearArg = args.includes('--year') ? args[args.indexOf('--year') + 1] : undefined;
      const csv = args.includes('--csv') ? args[args.indexOf('--csv') + 1] : undefined;
      if (!file || file.startsWith('--') || (yearArg !== undefined && !/^\d{4}$/.test(yearArg))) {
        console.error(USAGE);
        return 2;
      }
      const { readFile } = await import('node:fs/promises');
      const { CSV_PRESETS, readCsvStatement, readStatementFile } =
        await import('../core/payments/statements/index.js');
      const { importStatement } = await import('../core/payments/statement-import.js');
      const { currentEdition, editionOfYear } = await import('../core/editions/editions.js');
      const { recordAudit, systemAuditActor } = await import('../core/audit/audit.js');
      if (csv !== undefined && !(csv in CSV_PRESETS)) {
        console.error(`Unknown CSV format '${csv}': ${Object.keys(CSV_PRESETS).join(', ')}`);
        return 2;
      }
      const bytes = await readFile(file);
      const config = loadScheduleConfig();
      return withDatabase(async (orm) => {
        const em = orm.em.fork();
        const edition = yearArg
          ? await editionOfYear(em, Number(yearArg))
          : await currentEdition(em, new Date());
        if (!edition.fee) {
          const { PAYMENT_MESSAGES } = await import('@schlosstreffen/shared');
          const { DomainError } = await import('../core/errors.js');
          throw new DomainError('not_found', PAYMENT_MESSAGES.noFee(edition.year));
        }
        const read = csv
          ? readCsvStatement(bytes, CSV_PRESETS[csv as keyof typeof CSV_PRESETS])
          : await readStatementFile(bytes);
        const outcome = await importStatement(orm.em, { id: edition.id, year: edition.year }, read, {
          fileName: path.basename(file),
          importedById: null,
          publicUrl: config.publicUrl,
          audit: {
            record: (tx, note) =>
              recordAudit(tx, {
                ...systemAuditActor('payments:import'),
                action: 'payments.import',
                ...note,
                target: String(note?.target ?? edition.year),
              }),
          },
        });
        const c = outcome.counts;
        console.log(
          `${outcome.fileSeenBefore ? 'This file was read before. ' : ''}Statement read into ${edition.name}: ` +
            `${c.paid} paid, ${c.partial} partial, ${c.overpaid} overpaid, ${c.already_paid} already paid, ` +
            `${c.unassigned} unassigned, ${c.known} known before, ${c.skipped} skipped (debits, other currencies, not booked)`,
        );
      });
    }
    case 'media:clean': {
      const orm = await initOrm(loadDatabaseUrl());
      const { cleanStoredMedia } = await import('../core/media/media-cleaning.js');
      const clean = await cleanStoredMedia(orm.em, {
        wait: !args.includes('--no-wait'),
        report: (progress) =>
          console.log(
            `${progress.cleaned} of ${progress.total} images cleaned, ${progress.remaining} remaining`,
          ),
      });
      await orm.close();
      if (!clean)
        console.error('No progress for a minute: is the worker running (npm start, npm run start:worker)?');
      return clean ? 0 : 1;
    }
    case 'share-images:redraw': {
      const year = args[0];
      if (year !== undefined && !/^\d{4}$/.test(year)) {
        console.error(USAGE);
        return 2;
      }
      const { redrawShareImages } = await import('../core/public-list/share-image.js');
      return withDatabase(async (orm) => {
        const queued = await redrawShareImages(orm.em.fork(), year === undefined ? undefined : Number(year));
        console.log(
          `${queued} link ${queued === 1 ? 'preview' : 'previews'} queued; the worker draws those out of date`,
        );
      });
    }
    case 'edition:list':
    case 'edition:create':
    case 'edition:open':
    case 'edition:current': {
      const { editionCommand } = await import('./editions.js');
      return editionCommand(command, args, USAGE);
    }
    case 'backup:create':
    case 'backup:verify':
    case 'backup:restore':
    case 'backup:run': {
      const { backupCommand } = await import('./backup/command.js');
      return backupCommand(command, args, USAGE);
    }
    case 'seed': {
      const { runSeed } = await import('./seed.js');
      return runSeed();
    }
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
