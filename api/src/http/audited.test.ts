/**
 * An audited route's row and its action are one: a change whose audit row cannot be written is not
 * stored and answers an error; a bulk read whose row cannot be written serves nothing; a route
 * marked audited that answers 2xx without its row fails.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestContext } from '@mikro-orm/core';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoMoveUpEnabled } from '../core/settings/settings.js';
import { createEdition } from '../core/editions/editions.js';
import { Edition } from '../core/model/edition.entity.js';
import { User } from '../core/model/user.entity.js';
import {
  APPLYING_NOON,
  createTestContext,
  createWorld,
  testClock,
  type TestContext,
  type World,
} from '../testing/index.js';
import { audited, auditOf } from './audited.js';
import type { AppState } from './context.js';
import { errorHandler } from './error-handler.js';
import { strictRouter } from './router.js';

let t: TestContext;
let world: World;
const clock = testClock(APPLYING_NOON);
const em = () => t.orm.em.fork();
const sql = (statement: string) => em().getConnection().execute(statement);

beforeAll(async () => {
  t = await createTestContext({ relay: false, now: clock.now });
  world = await createWorld(t);
});
afterAll(() => t?.close());

const auditRows = async (action: string): Promise<number> => {
  const [row] = await em()
    .getConnection()
    .execute<{ n: number }[]>('select count(*)::int as n from audit_log where action = ?', [action]);
  return row!.n;
};

/** Every insert of `action` into the audit log fails (a check of this test's own database) during `fn`. */
async function auditFailing<T>(action: string, fn: () => Promise<T>): Promise<T> {
  await sql(`alter table audit_log add constraint audit_fails check (action <> '${action}') not valid`);
  try {
    return await fn();
  } finally {
    await sql('alter table audit_log drop constraint audit_fails');
  }
}

describe('a failing audit write', () => {
  it('rolls the waitlist switch back', async () => {
    const before = await autoMoveUpEnabled(em());
    const res = await auditFailing('waitlist.settings', () =>
      world.admin.client.put('/api/admin/waitlist/settings', { autoMoveUp: !before }),
    );
    expect(res.status).toBe(500);
    expect(await autoMoveUpEnabled(em())).toBe(before);
    expect(await auditRows('waitlist.settings')).toBe(0);

    // Once the row can be written, the switch and its row are stored together.
    const ok = await world.admin.client.put('/api/admin/waitlist/settings', { autoMoveUp: !before });
    expect(ok.status, ok.text).toBe(200);
    expect(await autoMoveUpEnabled(em())).toBe(!before);
    expect(await auditRows('waitlist.settings')).toBe(1);
  });

  it('rolls an edition update back, and an edition that would be created', async () => {
    const edition = await createEdition(em(), { year: 2081 });
    const place = edition.place;
    const update = await auditFailing('editions.update', () =>
      world.admin.client.patch('/api/admin/editions/2081', { place: 'Anderswo' }),
    );
    expect(update.status).toBe(500);
    expect((await em().findOneOrFail(Edition, { year: 2081 })).place).toBe(place);

    const create = await auditFailing('editions.create', () =>
      world.admin.client.post('/api/admin/editions', { year: 2082 }),
    );
    expect(create.status).toBe(500);
    expect(await em().count(Edition, { year: 2082 })).toBe(0);
    expect(await auditRows('editions.update')).toBe(0);
    expect(await auditRows('editions.create')).toBe(0);
  });

  it('serves no data of a bulk read', async () => {
    const owner = await em().findOneOrFail(User, world.owner.id);
    const csv = await auditFailing('vehicles.export_csv', () =>
      world.reviewer.client.get('/api/admin/vehicles.csv'),
    );
    expect(csv.status).toBe(500);
    expect(csv.headers.get('content-type')).toMatch(/json/);
    expect(csv.text).not.toContain(owner.email);
    expect(csv.headers.get('content-disposition')).toBeNull();

    const visitors = await auditFailing('visitors.list', () => world.admin.client.get('/api/admin/visitors'));
    expect(visitors.status).toBe(500);
    expect(visitors.data).not.toHaveProperty('visitors');
    expect(await auditRows('vehicles.export_csv')).toBe(0);

    // Without the failure the export is served, with its row.
    const served = await world.reviewer.client.get('/api/admin/vehicles.csv');
    expect(served.status).toBe(200);
    expect(served.text).toContain(owner.email);
    expect(await auditRows('vehicles.export_csv')).toBe(1);
  });
});

describe('a route marked audited', () => {
  /** A small app with one audited route, as the API runs them (errors, request context, a user). */
  async function serve(handler: (ctx: Koa.ParameterizedContext<AppState>) => Promise<void>) {
    const user = await em().findOneOrFail(User, world.admin.id);
    const router = strictRouter<AppState>();
    router.get('/audited', audited('audit.read', { details: () => ({ probe: true }) }), async (ctx) => {
      await handler(ctx);
      ctx.body = { ok: true };
    });
    const app = new Koa<AppState>();
    app.silent = true;
    app.use(errorHandler(() => undefined));
    app.use((ctx, next) => RequestContext.create(t.orm.em, next));
    app.use((ctx, next) => {
      ctx.state.user = user;
      return next();
    });
    app.use(router.routes());
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/audited`);
      return { status: res.status, body: await res.text() };
    } finally {
      server.close();
    }
  }

  it('fails with 500 when it answered 2xx without writing its row', async () => {
    const forgot = await serve(async () => {});
    expect(forgot.status).toBe(500);
    expect(forgot.body).not.toContain('ok');
  });

  it('answers once its row is written, naming the route that matched', async () => {
    const written = await serve((ctx) => auditOf(ctx).write(t.orm.em));
    expect(written.status).toBe(200);
    const [row] = await sql(
      `select route, details, actor_id from audit_log where details ->> 'probe' = 'true' order by seq desc limit 1`,
    );
    expect(row).toEqual({ route: 'GET /audited', details: { probe: true }, actor_id: world.admin.id });
  });

  it('fails when the row was recorded in a transaction that did not commit', async () => {
    const rolledBack = await serve(async (ctx) => {
      await em()
        .transactional(async (tx) => {
          auditOf(ctx).record(tx);
          await tx.flush();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
    });
    expect(rolledBack.status).toBe(500);
  });
});
