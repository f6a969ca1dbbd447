import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEdition, makeCurrent } from '../../core/editions/editions.js';
import { APPLYING_NOON, createTestContext, type TestContext } from '../../testing/index.js';

/** The vehicle year's upper bound is the current edition's year, not a constant. */
const body = (year: number) => ({
  brand: 'Cupra',
  model: 'Born',
  year,
  ps: 231,
  weightKg: 1800,
  topSpeedKmh: 160,
  zeroToHundredS: 6.6,
});

let spec: TestContext;
let next: TestContext;
beforeAll(async () => {
  spec = await createTestContext({ relay: false });
  next = await createTestContext({
    relay: false,
    env: { EVENT_START: '2027-06-19T10:00:00+02:00', EVENT_END: '2027-06-19T20:00:00+02:00' },
  });
});
afterAll(async () => {
  await spec?.close();
  await next?.close();
});

describe('vehicle year and the current edition', () => {
  it("the spec's 2026 edition refuses a 2027 car, naming 2026", async () => {
    const { client } = await spec.signIn('user');
    expect((await client.post('/api/vehicles', body(2026))).status).toBe(201);
    const res = await client.post('/api/vehicles', body(2027));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.data)).toContain('Baujahr muss zwischen 1950 und 2026 liegen');
  });

  it('the 2027 edition takes a 2027 car and refuses 2028, by configuration alone', async () => {
    const { client } = await next.signIn('user');
    const created = await client.post('/api/vehicles', body(2027));
    expect(created.status, created.text).toBe(201);
    const edited = await client.patch(`/api/vehicles/${created.data.id}`, { year: 2028 });
    expect(edited.status).toBe(400);
    expect(JSON.stringify(edited.data)).toContain('Baujahr muss zwischen 1950 und 2027 liegen');
  });

  it('a running app follows the edition made current, without a restart', async () => {
    const { client } = await spec.signIn('user');
    expect((await client.post('/api/vehicles', body(2027))).status).toBe(400);
    const em = spec.orm.em.fork();
    await createEdition(em, { year: 2027 });
    await makeCurrent(em, 2027, new Date(APPLYING_NOON.getTime() - 1000));
    const created = await client.post('/api/vehicles', body(2027));
    expect(created.status, created.text).toBe(201);
  });
});
