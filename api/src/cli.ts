import path from 'node:path';
import { ROLES, type Role } from '@schlosstreffen/shared';
import { loadDatabaseUrl } from './config.js';
import { initOrm } from './db/orm.js';
import { User } from './modules/users/user.entity.js';

const USAGE = `Usage: npm run cli -- <command>
  migrate                                  apply pending migrations
  migration:create [name]                  write a migration for entity changes (development)
  user:set-role <email> <user|reviewer|admin>
  seed                                     demo data (npm run seed)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'migrate': {
      const orm = await initOrm(loadDatabaseUrl(), { migrate: false });
      const done = await orm.migrator.up();
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
