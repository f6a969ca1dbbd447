import { MAIL_FATE_MESSAGES } from '@schlosstreffen/shared';
import type { VehicleMail } from '@schlosstreffen/shared/api';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster, toaster } from '../../../components/ui/toaster';
import { createQueryClient } from '../../../lib/query-client';
import { VehicleMailList } from './vehicle-mails';

const ID = 'a1b2c3d4-0000-4000-8000-000000000001';
const ANSWER = '550 5.1.1 <tippfehler@example.de>: Recipient address rejected: User unknown';

function mail(id: string, overrides: Partial<VehicleMail>): VehicleMail {
  return {
    id,
    template: 'application-received',
    name: 'Eingangsbestätigung',
    subject: 'Deine Bewerbung ist eingegangen – Schlosstreffen',
    recipient: 'tippfehler@example.de',
    state: 'sent',
    attempts: 1,
    error: null,
    createdAt: '2026-04-01T08:00:00.000Z',
    sentAt: '2026-04-01T08:00:01.000Z',
    resent: false,
    templateVersion: 0,
    ...overrides,
  };
}

let mails: VehicleMail[];
let posted: string[];
let resendAnswer: () => Response;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input);
  if (url === `/api/admin/vehicles/${ID}/emails` && (init?.method ?? 'GET') === 'GET') return json({ mails });
  const resend = new RegExp(`^/api/admin/vehicles/${ID}/emails/([^/]+)/resend$`).exec(url);
  if (resend && init?.method === 'POST') {
    posted.push(resend[1]!);
    return resendAnswer();
  }
  return json({ message: 'Ein Fehler ist aufgetreten.' }, 404);
});

beforeEach(() => {
  mails = [
    mail('m4', {
      template: 'application-waitlist',
      name: 'Warteliste',
      subject: null,
      state: 'held',
      error: ANSWER,
      sentAt: null,
      templateVersion: null,
    }),
    mail('m3', {
      template: 'application-rejected',
      name: 'Absage',
      subject: 'Deine Bewerbung beim Schlosstreffen',
      state: 'refused',
      error: ANSWER,
      templateVersion: 3,
      sentAt: null,
    }),
    mail('m2', {
      name: 'Teilnahmebestätigung',
      state: 'deferred',
      attempts: 2,
      error: '451 4.2.2 Mailbox full',
      sentAt: null,
    }),
    mail('m1', {}),
  ];
  posted = [];
  resendAnswer = () => {
    mails = mails.map((item) => (item.id === 'm3' ? { ...item, resent: true } : item));
    return json({ message: MAIL_FATE_MESSAGES.resent }, 202);
  };
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  toaster.remove();
  vi.unstubAllGlobals();
});

function renderList() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <VehicleMailList vehicleId={ID} />
      <AppToaster />
    </QueryClientProvider>,
  );
}

const item = (name: string) =>
  within(screen.getByRole('list', { name: 'E-Mails zur Bewerbung' }))
    .getByText(name, { selector: 'span' })
    .closest('li')!;

describe('E-Mails block', () => {
  it("lists each mail with its fate: zugestellt, wird erneut versucht, abgelehnt with the server's answer, zurückgehalten", async () => {
    renderList();
    await screen.findByRole('list', { name: 'E-Mails zur Bewerbung' });

    expect(within(item('Eingangsbestätigung')).getByText('zugestellt')).toBeTruthy();
    expect(within(item('Teilnahmebestätigung')).getByText('wird erneut versucht (2 Versuche)')).toBeTruthy();
    expect(item('Teilnahmebestätigung').textContent).toContain(
      'Antwort des Mailservers: 451 4.2.2 Mailbox full',
    );
    const refused = item('Absage');
    expect(within(refused).getByText('abgelehnt')).toBeTruthy();
    expect(refused.textContent).toContain(`Antwort des Mailservers: ${ANSWER}`);
    expect(refused.textContent).toContain('Deine Bewerbung beim Schlosstreffen');
    expect(refused.textContent).toContain('an tippfehler@example.de');
    // Which version of the edition's text it was written with.
    expect(refused.textContent).toContain('Vorlage Version 3');
    expect(item('Eingangsbestätigung').textContent).toContain('Standardtext');
    const held = item('Warteliste');
    expect(within(held).getByText('zurückgehalten')).toBeTruthy();
    expect(held.textContent).toContain(`Zurückgehalten, die Adresse wurde abgelehnt: ${ANSWER}`);
  });

  it("'Erneut senden' asks once; the mail then shows as resent without the button", async () => {
    const user = userEvent.setup();
    renderList();
    await screen.findByRole('list', { name: 'E-Mails zur Bewerbung' });

    await user.click(within(item('Absage')).getByRole('button', { name: 'Erneut senden' }));
    expect(await screen.findByText(MAIL_FATE_MESSAGES.resent)).toBeTruthy();
    expect(await within(item('Absage')).findByText('erneut gesendet')).toBeTruthy();
    expect(within(item('Absage')).queryByRole('button', { name: 'Erneut senden' })).toBeNull();
    expect(posted).toEqual(['m3']);
  });

  it("shows the server's refusal of a resend", async () => {
    const user = userEvent.setup();
    resendAnswer = () => json({ message: MAIL_FATE_MESSAGES.resendBounced('tippfehler@example.de') }, 409);
    renderList();
    await screen.findByRole('list', { name: 'E-Mails zur Bewerbung' });

    await user.click(within(item('Warteliste')).getByRole('button', { name: 'Erneut senden' }));
    expect(await screen.findByText('Erneut senden fehlgeschlagen')).toBeTruthy();
    expect(screen.getByText(MAIL_FATE_MESSAGES.resendBounced('tippfehler@example.de'))).toBeTruthy();
    expect(posted).toEqual(['m4']);
  });

  it('says when no mail was sent yet', async () => {
    mails = [];
    renderList();
    expect(await screen.findByText('Noch keine E-Mails versendet')).toBeTruthy();
  });
});
