import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderAt, setupScreenTests } from '../../test/screen-helpers';

setupScreenTests();

const TOKEN = 'a1b2c3d4e5f6a7b8c9d0';

describe('/publikumsliebling/meine-stimmen', () => {
  it('is one card with one h1 and a section each to download and to delete; nothing is sent on load', async () => {
    const api = mockApi({
      'POST /api/award/my-votes/delete': () =>
        Promise.resolve({ body: { message: 'Deine Adresse und ihre Stimmen sind gelöscht.' } }),
    });
    const { user } = await renderAt(`/publikumsliebling/meine-stimmen?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Meine Stimmen' })).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const main = within(screen.getByRole('main'));
    expect(main.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Herunterladen',
      'Löschen',
    ]);
    expect(screen.getByRole('region', { name: 'Herunterladen' })).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Meine Stimmen löschen' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'Deine Adresse und ihre Stimmen sind gelöscht.',
    );
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/award/my-votes/delete', body: { token: TOKEN } },
    ]);
    // The download stays offered beside the outcome of the deletion.
    expect(screen.getByRole('button', { name: 'Meine Stimmen herunterladen' })).toBeTruthy();
  });
});
