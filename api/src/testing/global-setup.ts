import { randomBytes } from 'node:crypto';
import { resolveTestServices } from '@schlosstreffen/infra/test-services';
import type { TestProject } from 'vitest/node';
import { initOrm } from '../core/db/orm.js';
import { adminQuery, databaseUrlFor, listDatabases } from './database.js';
import type { ProvidedServices } from './services.js';

/**
 * Resolves PostgreSQL, Redis, S3 and SMTP once per run and migrates a template database that
 * every test file clones into a database of its own.
 */
export default async function setup(project: TestProject) {
  const services = await resolveTestServices();
  const templateDb = `st_template_${randomBytes(4).toString('hex')}`;
  const orm = await initOrm(databaseUrlFor(services.databaseUrl, templateDb));
  await orm.close();
  const provided: ProvidedServices = {
    databaseUrl: services.databaseUrl,
    templateDb,
    redisUrl: services.redisUrl,
    s3: services.s3,
    smtpUrl: services.smtpUrl,
    mailWebUrl: services.mailWebUrl,
  };
  project.provide('services', provided);
  return async () => {
    const leftovers = await listDatabases(
      services.databaseUrl,
      `${templateDb.replace('template', 'test')}_%`,
    );
    for (const name of [...leftovers, templateDb]) {
      await adminQuery(services.databaseUrl, `drop database if exists "${name}" with (force)`);
    }
    await services.stop();
  };
}
