import { screen, waitFor, within } from '@testing-library/react';
import type { TeamList, TeamMember } from '@schlosstreffen/shared/api';
import { describe, expect, it } from 'vitest';
import {
  errorOf,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
} from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;

function member(overrides: Partial<TeamMember> & Pick<TeamMember, 'id'>): TeamMember {
  return {
    firstName: 'Rita',
    lastName: 'Prüfer',
    email: `${overrides.id}@example.de`,
    role: 'reviewer',
    secondFactorSince: null,
    recoveryCodesLeft: 0,
    ...overrides,
  };
}

const LIST: TeamList = {
  secondFactorRequired: true,
  members: [
    member({
      id: SIGNED_IN_USER.id,
      firstName: 'Lena',
      lastName: 'Weber',
      role: 'admin',
      secondFactorSince: '2026-03-01T09:00:00.000Z',
      recoveryCodesLeft: 10,
    }),
    member({ id: 'r1', secondFactorSince: '2026-03-02T10:00:00.000Z', recoveryCodesLeft: 1 }),
    member({ id: 'r2', firstName: 'Paul', lastName: 'Neu' }),
  ],
};

const table = () => screen.getByRole('table', { name: 'Teammitglieder' });
const rowOf = (text: string) => within(table()).getByRole('row', { name: new RegExp(text) });

describe('/admin/team', () => {
  it('lists the staff with their second factor; the own admin role cannot be taken', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/team': () => ({ body: LIST }),
    });
    await renderAt('/admin/team');

    expect(await screen.findByRole('heading', { name: 'Team', level: 1 })).toBeTruthy();
    expect(document.title).toBe('Team – Adminbereich – Schlosstreffen');
    const own = rowOf('Lena Weber');
    expect(own.textContent).toContain('(Ihr Konto)');
    expect(own.textContent).toContain('Seit 01.03.2026, 10:00 Uhr');
    expect(within(own).queryByRole('button', { name: /Rolle entziehen/ })).toBeNull();
    expect(rowOf('Rita Prüfer').textContent).toContain('1 Wiederherstellungscode übrig');
    const fresh = rowOf('Paul Neu');
    expect(fresh.textContent).toContain('Nicht eingerichtet');
    expect(
      within(fresh)
        .getByRole('button', { name: 'Zweiten Faktor zurücksetzen: Paul Neu' })
        .hasAttribute('disabled'),
    ).toBe(true);
  });

  it('gives a role by email; a refused address shows the reason on the field', async () => {
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/team': () => ({ body: LIST }),
      'POST /api/admin/team': (body) =>
        (body as { email: string }).email === 'offen@example.de'
          ? {
              status: 400,
              body: {
                message: 'Diese E-Mail-Adresse ist noch nicht bestätigt.',
                issues: [{ field: 'email', message: 'Diese E-Mail-Adresse ist noch nicht bestätigt.' }],
              },
            }
          : {
              body: {
                ...LIST,
                members: [
                  ...LIST.members,
                  member({ id: 'r3', firstName: 'Nele', lastName: 'Neu', role: 'admin' }),
                ],
                message: 'Nele Neu ist jetzt Admin.',
              },
            },
    });
    const { user } = await renderAt('/admin/team');
    const form = await screen.findByRole('form', { name: 'Rolle vergeben' });
    const email = within(form).getByLabelText(/E-Mail-Adresse des Kontos/);

    await user.type(email, 'offen@example.de');
    await user.click(within(form).getByRole('button', { name: 'Rolle vergeben' }));
    await waitFor(() => expect(errorOf(email)).toBe('Diese E-Mail-Adresse ist noch nicht bestätigt.'));

    await user.clear(email);
    await user.type(email, 'Nele@Example.de');
    await user.click(within(form).getByRole('radio', { name: /^Admin/ }));
    await user.click(within(form).getByRole('button', { name: 'Rolle vergeben' }));
    expect(await findToast('Rolle vergeben')).toContain('Nele Neu ist jetzt Admin.');
    expect(rowOf('Nele Neu')).toBeTruthy();
    expect(api.writes().at(-1)).toEqual({
      method: 'POST',
      path: '/api/admin/team',
      body: { email: 'nele@example.de', role: 'admin' },
    });
  });

  it('resets a second factor after asking', async () => {
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/team': () => ({ body: LIST }),
      'POST /api/admin/team/r1/reset-second-factor': () => ({
        body: {
          ...LIST,
          members: LIST.members.map((entry) =>
            entry.id === 'r1' ? { ...entry, secondFactorSince: null, recoveryCodesLeft: 0 } : entry,
          ),
          message: 'Der zweite Faktor von Rita Prüfer ist zurückgesetzt.',
        },
      }),
    });
    const { user } = await renderAt('/admin/team');
    // The wide table (the phone cards carry the same buttons).
    await screen.findByRole('table', { name: 'Teammitglieder' });
    await user.click(
      within(table()).getByRole('button', { name: 'Zweiten Faktor zurücksetzen: Rita Prüfer' }),
    );
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Rita Prüfer wird abgemeldet');
    expect(api.writes()).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Zurücksetzen' }));
    expect(await findToast('Zweiter Faktor zurückgesetzt')).toContain('Rita Prüfer');
    await waitFor(() => expect(rowOf('Rita Prüfer').textContent).toContain('Nicht eingerichtet'));
  });

  it('reviewers see Zugriff verweigert and never call the API', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, role: 'reviewer' } }) });
    await renderAt('/admin/team');
    expect(await screen.findByRole('heading', { name: 'Zugriff verweigert' })).toBeTruthy();
    expect(api.calls.filter((call) => call.path === '/api/admin/team')).toEqual([]);
  });
});
