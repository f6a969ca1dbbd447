import { VEHICLE_STATUSES } from '@schlosstreffen/shared';
import type {
  AdminVehiclePage,
  BulkStatusPreview,
  BulkStatusResult,
  Owner,
  Vehicle,
} from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';
import { installDomShims } from '../../vehicle-form/test-helpers';
import { makeVehicle } from '../../vehicles/vehicle-fixtures';
import {
  applyInChunks,
  BulkApplyError,
  changesLine,
  mailsHeading,
  NO_SELECTION,
  previewBody,
  resultLine,
  toggled,
} from './bulk-status';

setupScreenTests();
beforeEach(() => {
  installDomShims();
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  Element.prototype.scrollTo ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
});

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
const owner = (firstName: string, lastName: string, email: string): Owner => ({
  id: email,
  firstName,
  lastName,
  email,
  phone: null,
  role: 'user',
});

const FLEET: Vehicle[] = [
  makeVehicle({
    id: id(1),
    brand: 'BMW',
    model: 'M3',
    name: 'Henna',
    status: 'submitted',
    user: owner('Jonas', 'Becker', 'jonas@example.de'),
  }),
  makeVehicle({
    id: id(2),
    brand: 'Toyota',
    model: 'Supra',
    status: 'submitted',
    user: owner('Marie', 'Fischer', 'marie@example.de'),
  }),
  makeVehicle({
    id: id(3),
    brand: 'Mazda',
    model: 'RX-7',
    status: 'in_review',
    user: owner('Lena', 'Wolf', 'lena@example.de'),
  }),
];

function page(): AdminVehiclePage {
  const counts = Object.fromEntries(
    ['all', ...VEHICLE_STATUSES].map((key) => [
      key,
      FLEET.filter((vehicle) => key === 'all' || vehicle.status === key).length,
    ]),
  ) as AdminVehiclePage['counts'];
  return { items: FLEET, counts, nextCursor: null };
}

const WAITLIST_MAIL = {
  template: 'application-waitlist' as const,
  kind: 'Warteliste',
  subject: 'Du stehst auf der Warteliste – Schlosstreffen',
};

const row = (outcome: 'changed' | 'refused' | 'unchanged', n: number) => ({
  id: id(n),
  title: `Auto ${n}`,
  outcome,
  status: 'waitlist' as const,
  reason: outcome === 'changed' ? null : 'Grund',
  mail: outcome === 'changed',
});

describe('bulk status helpers', () => {
  it('asks for hand-picked ids or the filter with the trimmed search', () => {
    const picked = toggled(toggled(toggled(NO_SELECTION, id(1), 'A'), id(2), 'B'), id(1), 'A');
    expect(previewBody(picked, 'waitlist')).toEqual({ status: 'waitlist', ids: [id(2)] });
    expect(previewBody({ kind: 'filter', status: 'submitted', q: ' golf ', count: 3 }, 'rejected')).toEqual({
      status: 'rejected',
      filter: { status: 'submitted', q: 'golf' },
    });
  });

  it('sends the change in chunks of 50 and reports the progress after each', async () => {
    const changes = Array.from({ length: 120 }, (_, n) => ({ id: `v${n}`, oldStatus: 'submitted' as const }));
    const bodies: { changes: unknown[]; comment: unknown }[] = [];
    const progress: string[] = [];
    const result = await applyInChunks(
      changes,
      'waitlist',
      '  Runde 2 ',
      ({ done, total }) => progress.push(`${done}/${total}`),
      async (body) => {
        const sent = body as { changes: { id: string }[]; comment: unknown };
        bodies.push(sent);
        return {
          status: 'waitlist',
          changed: 0,
          unchanged: 0,
          refused: 0,
          mails: 0,
          rows: sent.changes.map((change, n) => ({
            ...row(n === 0 ? 'refused' : 'changed', 1),
            id: change.id,
          })),
        };
      },
    );
    expect(bodies.map((body) => body.changes.length)).toEqual([50, 50, 20]);
    expect(bodies[0]!.comment).toBe('Runde 2');
    expect(progress).toEqual(['0/120', '50/120', '100/120', '120/120']);
    expect(result).toMatchObject({ changed: 117, refused: 3, unchanged: 0, mails: 117 });
    expect(resultLine(result)).toBe('117 geändert, 3 abgelehnt');
  });

  it('stops at a failing request with the rows answered so far', async () => {
    const changes = Array.from({ length: 70 }, (_, n) => ({ id: `v${n}`, oldStatus: 'submitted' as const }));
    let calls = 0;
    const stopped = await applyInChunks(
      changes,
      'waitlist',
      '',
      () => undefined,
      async (body) => {
        calls += 1;
        if (calls === 2) throw new ApiError(502, 'Bad Gateway', false);
        const sent = body as { changes: { id: string }[] };
        return {
          ...row('changed', 1),
          rows: sent.changes.map((change) => ({ ...row('changed', 1), id: change.id })),
        } as never;
      },
    ).catch((error: unknown) => error);
    expect(stopped).toBeInstanceOf(BulkApplyError);
    expect((stopped as BulkApplyError).answered).toHaveLength(50);
  });

  it('says how many mails go out and how many rows change, in German', () => {
    expect([0, 1, 50].map(mailsHeading)).toEqual([
      'Es werden keine E-Mails versendet.',
      'Es wird 1 E-Mail versendet an:',
      'Es werden 50 E-Mails versendet an:',
    ]);
    const preview = (changes: number, selected: number) =>
      ({
        status: 'waitlist',
        selected,
        changes: Array.from({ length: changes }),
        skipped: [],
        mails: 0,
        placesFreed: 0,
      }) as unknown as BulkStatusPreview;
    expect(changesLine(preview(50, 50))).toBe('50 Bewerbungen werden auf „Warteliste“ gesetzt.');
    expect(changesLine(preview(1, 1))).toBe('1 Bewerbung wird auf „Warteliste“ gesetzt.');
    expect(changesLine(preview(48, 50))).toBe(
      '48 von 50 ausgewählten Bewerbungen werden auf „Warteliste“ gesetzt.',
    );
    expect(changesLine(preview(0, 2))).toBe('Keine der ausgewählten Bewerbungen ändert sich.');
    expect(
      resultLine({
        status: 'waitlist',
        changed: 0,
        unchanged: 2,
        refused: 0,
        mails: 0,
        rows: [],
      } satisfies BulkStatusResult),
    ).toBe('0 geändert, 2 bereits auf „Warteliste“');
  });
});

describe('/admin/dashboard: bulk status change', () => {
  it('selects two cards, previews the mails and their recipients, changes and reports per row', async () => {
    let listed = 0;
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, role: 'reviewer' } }),
      'GET /api/admin/vehicles': () => {
        listed += 1;
        return { body: page() };
      },
      'POST /api/admin/vehicles/bulk-status/preview': () => ({
        body: {
          status: 'waitlist',
          selected: 2,
          mails: 2,
          placesFreed: 0,
          skipped: [],
          changes: [
            {
              id: id(1),
              title: 'Henna',
              oldStatus: 'submitted',
              owner: { name: 'Jonas Becker', email: 'jonas@example.de' },
              mail: WAITLIST_MAIL,
              noMail: null,
            },
            {
              id: id(2),
              title: 'Toyota Supra',
              oldStatus: 'submitted',
              owner: { name: 'Marie Fischer', email: 'marie@example.de' },
              mail: WAITLIST_MAIL,
              noMail: null,
            },
          ],
        } satisfies BulkStatusPreview,
      }),
      'POST /api/admin/vehicles/bulk-status': () => ({
        body: {
          status: 'waitlist',
          changed: 1,
          unchanged: 0,
          refused: 1,
          mails: 1,
          rows: [
            { id: id(1), title: 'Henna', outcome: 'changed', status: 'waitlist', reason: null, mail: true },
            {
              id: id(2),
              title: 'Toyota Supra',
              outcome: 'refused',
              status: 'in_review',
              reason: 'Der Status wurde inzwischen geändert: jetzt „In Prüfung“ statt „Eingereicht“.',
              mail: false,
            },
          ],
        } satisfies BulkStatusResult,
      }),
    });
    const { user } = await renderAt('/admin/dashboard');
    await screen.findByRole('article', { name: 'Henna' });
    expect(screen.queryByRole('checkbox', { name: 'Henna auswählen' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Mehrere auswählen' }));
    expect(screen.getByRole('button', { name: 'Alle 3 Treffer auswählen' })).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'Henna auswählen' }));
    await user.click(screen.getByRole('checkbox', { name: 'Toyota Supra auswählen' }));
    const bar = screen.getByRole('region', { name: 'Auswahl' });
    expect(bar.textContent).toContain('2 ausgewählt');
    const change = within(bar).getByRole('button', { name: 'Status ändern…' });
    expect((change as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(bar).getByRole('combobox', { name: 'Neuer Status' }));
    await user.click(await screen.findByRole('option', { name: 'Warteliste' }));
    await user.click(change);

    const dialog = await screen.findByRole('dialog', { name: 'Status ändern' });
    expect(await within(dialog).findByText('Es werden 2 E-Mails versendet an:')).toBeTruthy();
    const recipients = within(dialog).getByRole('list', { name: 'Empfänger' });
    expect(
      within(recipients)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Jonas Beckerjonas@example.deHenna', 'Marie Fischermarie@example.deToyota Supra']);
    expect(dialog.textContent).toContain('Betreff: „Du stehst auf der Warteliste – Schlosstreffen“');
    expect(api.writes()[0]).toEqual({
      method: 'POST',
      path: '/api/admin/vehicles/bulk-status/preview',
      body: { status: 'waitlist', ids: [id(1), id(2)] },
    });

    await user.type(within(dialog).getByLabelText('Interne Notiz (optional)'), 'Vorauswahl');
    const before = listed;
    await user.click(within(dialog).getByRole('button', { name: 'Bestätigen' }));
    expect(await within(dialog).findByText('1 geändert, 1 abgelehnt')).toBeTruthy();
    expect(within(dialog).getByText('1 E-Mail ist unterwegs.')).toBeTruthy();
    expect(
      within(within(dialog).getByRole('list', { name: 'Abgelehnt' })).getByText(
        'Der Status wurde inzwischen geändert: jetzt „In Prüfung“ statt „Eingereicht“.',
      ),
    ).toBeTruthy();
    expect(api.writes()[1]).toEqual({
      method: 'POST',
      path: '/api/admin/vehicles/bulk-status',
      body: {
        status: 'waitlist',
        changes: [
          { id: id(1), oldStatus: 'submitted' },
          { id: id(2), oldStatus: 'submitted' },
        ],
        comment: 'Vorauswahl',
      },
    });
    // The list is read again.
    await waitFor(() => expect(listed).toBeGreaterThan(before));

    // The footer's button (the header's cross is the other one).
    await user.click(within(dialog).getAllByRole('button', { name: 'Schließen' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Auswahl' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Mehrere auswählen' })).toBeTruthy();
  });

  it('selects every hit of the filter and previews by the filter', async () => {
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, role: 'admin' } }),
      'GET /api/admin/vehicles': () => ({ body: page() }),
      'POST /api/admin/vehicles/bulk-status/preview': () => ({
        status: 400,
        body: { message: 'Der Filter trifft 501 Bewerbungen; höchstens 500 lassen sich auf einmal ändern.' },
      }),
    });
    const { user } = await renderAt('/admin/dashboard?status=submitted');
    await screen.findByRole('article', { name: 'Henna' });
    await user.click(screen.getByRole('button', { name: 'Mehrere auswählen' }));
    await user.click(screen.getByRole('button', { name: 'Alle 2 Treffer auswählen' }));
    expect(screen.getByText('Alle 2 Treffer sind ausgewählt.')).toBeTruthy();
    const henna = screen.getByRole('checkbox', { name: 'Henna auswählen' }) as HTMLInputElement;
    expect(henna.checked).toBe(true);
    const bar = screen.getByRole('region', { name: 'Auswahl' });
    expect(bar.textContent).toContain('2 ausgewählt (alle Treffer)');
    await user.click(within(bar).getByRole('combobox', { name: 'Neuer Status' }));
    await user.click(await screen.findByRole('option', { name: 'Abgelehnt' }));
    await user.click(within(bar).getByRole('button', { name: 'Status ändern…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status ändern' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Der Filter trifft 501 Bewerbungen');
    expect((within(dialog).getByRole('button', { name: 'Bestätigen' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(api.writes()[0]!.body).toEqual({ status: 'rejected', filter: { status: 'submitted', q: '' } });
  });
});
