import path from 'node:path';
import { ROLES, type Role } from '@schlosstreffen/shared';
import { loadDatabaseUrl } from './config.js';
import { ensureDatabase, initOrm, migrate } from './db/orm.js';
import { User } from './modules/users/user.entity.js';

const USAGE = `Usage: npm run cli -- <command>
  migrate                                  apply pending migrations
  migration:create [name]                  write a migration for entity changes (development)
  user:set-role <email> <user|reviewer|admin>
  seed                                     demo data (npm run seed)
  projections:rebuild [--verify]           replay the status log into vehicle.status and the public list
                                           (--verify only compares and exits 1 on any difference)
  user:delete <email>                      delete an account with its vehicles, media and stored files`;

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
      const result = await orm.migrator.create(path.resolve('api/src/db/migrations'), false, false, args[0]);
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
      const em = orm.em.fork();
      const user = await em.findOne(User, { email: email.trim().toLowerCase() });
      if (!user) {
        console.error(`No user with email ${email}`);
        await orm.close();
        return 1;
      }
      user.role = role as Role;
      await em.flush();
      console.log(`${user.email} is now ${role}`);
      await orm.close();
      return 0;
    }
    case 'projections:rebuild': {
      const verify = args.includes('--verify');
      const orm = await initOrm(loadDatabaseUrl());
      const { rebuildProjections } = await import('./modules/status-log/projections.js');
      const report = await rebuildProjections(orm.em.fork(), { write: !verify });
      await orm.close();
      console.log(
        `${report.vehicles} vehicles, ${report.events} status events replayed; ` +
          `${report.mismatches.length} status ${report.mismatches.length === 1 ? 'mismatch' : 'mismatches'}, ` +
          `${report.publicListDrift} public list ${report.publicListDrift === 1 ? 'row' : 'rows'} out of date`,
      );
      for (const m of report.mismatches) {
        console.log(`  ${m.vehicleId} ${m.title}: stored ${m.projected}, log says ${m.replayed}`);
      }
      const clean = report.mismatches.length === 0 && report.publicListDrift === 0;
      if (verify) return clean ? 0 : 1;
      console.log(clean ? 'nothing to fix' : 'projections rebuilt from the log');
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
      const { deleteUser } = await import('./modules/users/user.service.js');
      const deleted = user ? await deleteUser(em, user.id) : false;
      await orm.close();
      console.log(
        deleted
          ? `${email} deleted; its stored files are removed by the worker`
          : `No user with email ${email}`,
      );
      return deleted ? 0 : 1;
    }
    case 'seed': {
      const { runSeed } = await import('./db/seed.js');
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
