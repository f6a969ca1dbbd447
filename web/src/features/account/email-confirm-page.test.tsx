import { PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failWith, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../test/screen-helpers';

setupScreenTests();

const TOKEN = 'f00dfeedc0ffee';
const NEW_EMAIL = 'lena.neu@example.de';

describe('/email-bestaetigen', () => {
  it('changes nothing on load; the button confirms, then links to the dashboard with the new address', async () => {
    let confirmed = false;
    const api = mockApi({
      'GET /api/auth/user': () => ({
        body: confirmed
          ? { ...SIGNED_IN_USER, email: NEW_EMAIL, pendingEmail: null }
          : { ...SIGNED_IN_USER, pendingEmail: NEW_EMAIL },
      }),
      'POST /api/auth/confirm-email': () => {
        confirmed = true;
        return { body: { message: PRIVACY_MESSAGES.emailChanged } };
      },
    });
    const { queryClient, user } = await renderAt(`/email-bestaetigen?token=${TOKEN}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'E-Mail-Adresse bestätigen' })).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'E-Mail-Adresse bestätigen' }));

    const outcome = await screen.findByRole('status');
    expect(outcome.textContent).toBe(PRIVACY_MESSAGES.emailChanged);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/auth/confirm-email', body: { token: TOKEN } },
    ]);
    expect(
      within(screen.getByRole('main'))
        .getByRole('link', { name: 'Zu meinen Fahrzeugen' })
        .getAttribute('href'),
    ).toBe('/dashboard');
    await waitFor(() =>
      expect(queryClient.getQueryData<{ email: string }>(['auth', 'user'])?.email).toBe(NEW_EMAIL),
    );
  });

  it('shows the server message for an invalid or expired link', async () => {
    mockApi({ 'POST /api/auth/confirm-email': failWith(400, PRIVACY_MESSAGES.emailLinkInvalid) });
    const { user } = await renderAt(`/email-bestaetigen?token=${TOKEN}`);

    await user.click(await screen.findByRole('button', { name: 'E-Mail-Adresse bestätigen' }));

    expect((await screen.findByRole('alert')).textContent).toBe(PRIVACY_MESSAGES.emailLinkInvalid);
    expect(screen.queryByRole('link', { name: 'Zu meinen Fahrzeugen' })).toBeNull();
  });

  it('says the link is invalid without a token', async () => {
    const api = mockApi();
    await renderAt('/email-bestaetigen');

    expect((await screen.findByRole('alert')).textContent).toBe(PRIVACY_MESSAGES.emailLinkInvalid);
    expect(screen.queryByRole('button', { name: 'E-Mail-Adresse bestätigen' })).toBeNull();
    expect(api.writes()).toEqual([]);
  });
});

describe('/email-aenderung-abbrechen', () => {
  it('changes nothing on load; the button cancels the pending change', async () => {
    const api = mockApi({
      'POST /api/auth/cancel-email-change': () => ({
        body: { message: PRIVACY_MESSAGES.emailChangeCancelled },
      }),
    });
    const { user } = await renderAt(`/email-aenderung-abbrechen?token=${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'E-Mail-Änderung abbrechen' })).toBeTruthy();
    expect(api.writes()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Änderung abbrechen' }));
    expect((await screen.findByRole('status')).textContent).toBe(PRIVACY_MESSAGES.emailChangeCancelled);
    expect(api.writes()).toEqual([
      { method: 'POST', path: '/api/auth/cancel-email-change', body: { token: TOKEN } },
    ]);
  });
});
