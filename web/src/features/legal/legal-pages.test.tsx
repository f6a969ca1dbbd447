import {
  DEFAULT_RETENTION,
  DEFAULT_SITE_CONFIG,
  RETENTION_RULES,
  type SiteConfig,
} from '@schlosstreffen/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderAt, setupScreenTests } from '../../test/screen-helpers';

/** A configured operator and retention periods that differ from the defaults. */
const CONFIG: SiteConfig = {
  ...DEFAULT_SITE_CONFIG,
  publicUrl: 'https://schlosstreffen.example',
  operator: {
    name: 'Schlosstreffen e. V.',
    address: 'Schlossallee 7\n01234 Moritzburg',
    email: 'info@schlosstreffen.example',
    phone: '+49 351 987654',
    privacyContact: 'datenschutz@schlosstreffen.example',
  },
  retention: { ...DEFAULT_RETENTION, visitorsAfterEvent: 45, unattachedUploads: 1, juryScoresAfterEvent: 60 },
};

vi.mock('../../lib/site-config', () => ({ getSiteConfig: () => CONFIG }));

setupScreenTests();

const main = () => screen.getByRole('main');

describe('/datenschutz', () => {
  it('names the operator and the data protection contact from the site config', async () => {
    mockApi();
    await renderAt('/datenschutz');

    expect(await screen.findByRole('heading', { level: 1, name: 'Datenschutzerklärung' })).toBeTruthy();
    const responsible = screen.getByRole('region', { name: '1. Verantwortlicher' });
    expect(responsible.textContent).toContain('Schlosstreffen e. V.');
    expect(responsible.textContent).toContain('Schlossallee 7');
    expect(responsible.textContent).toContain('01234 Moritzburg');
    expect(
      within(responsible).getByRole('link', { name: 'info@schlosstreffen.example' }).getAttribute('href'),
    ).toBe('mailto:info@schlosstreffen.example');
    expect(within(responsible).getByRole('link', { name: '+49 351 987654' }).getAttribute('href')).toBe(
      'tel:+49351987654',
    );
    expect(
      within(responsible)
        .getByRole('link', { name: 'datenschutz@schlosstreffen.example' })
        .getAttribute('href'),
    ).toBe('mailto:datenschutz@schlosstreffen.example');
  });

  it('lists every retention period from the site config with its label and description', async () => {
    mockApi();
    await renderAt('/datenschutz');

    const periods = await screen.findByRole('table', { name: 'Speicherfristen' });
    const rows = Object.fromEntries(
      within(periods)
        .getAllByRole('rowheader')
        .map((label) => [label.textContent, label.nextElementSibling?.textContent]),
    );
    expect(Object.keys(rows)).toEqual(Object.values(RETENTION_RULES).map((rule) => rule.label));
    expect(rows[RETENTION_RULES.visitorsAfterEvent.label]).toBe('45 Tage nach dem Ende der Veranstaltung');
    expect(rows[RETENTION_RULES.unattachedUploads.label]).toBe('1 Tag nach dem Hochladen');
    expect(rows[RETENTION_RULES.accountExports.label]).toBe('7 Tage nach der Erstellung');
    expect(main().textContent).toContain('bis du es löschst');
  });

  it("says what the jury stores and for how long: a judge's values until their period, the results without names", async () => {
    mockApi();
    await renderAt('/datenschutz');
    await screen.findByRole('heading', { level: 1, name: 'Datenschutzerklärung' });
    const text = main().textContent ?? '';
    expect(text).toContain(
      'Deine Einzelwerte und Befangenheiten löschen wir 60 Tage nach dem Ende der Veranstaltung; die Ergebnisse der Klassen (Plätze und Durchschnittswerte je Auto) bleiben ohne die Namen der Jurymitglieder.',
    );
    expect(text).toContain('bis du sie annimmst, längstens 14 Tage nach dem Versand.');
    expect(text).toContain('deinen Bewertungen als Jurymitglied');
    const periods = screen.getByRole('table', { name: 'Speicherfristen' });
    expect(within(periods).getByRole('rowheader', { name: RETENTION_RULES.juryInvites.label })).toBeTruthy();
  });

  it('states the legal bases, recipients and rights, and how to use them in the profile', async () => {
    mockApi();
    await renderAt('/datenschutz');
    await screen.findByRole('heading', { level: 1, name: 'Datenschutzerklärung' });
    const text = main().textContent ?? '';

    for (const basis of [
      'Art. 6 Abs. 1 lit. a DSGVO',
      'Art. 6 Abs. 1 lit. b DSGVO',
      'Art. 6 Abs. 1 lit. f DSGVO',
    ]) {
      expect(text).toContain(basis);
    }
    for (const right of ['Art. 15', 'Art. 16', 'Art. 17', 'Art. 18', 'Art. 20', 'Art. 21', 'Art. 7 Abs. 3']) {
      expect(text).toContain(right);
    }
    expect(text).toContain('Sächsischen Datenschutz- und Transparenzbeauftragten');
    expect(text).toContain('S3-kompatibler Objektspeicher');
    expect(text).toContain('E-Mail-Versanddienstleister');
    expect(text).toContain('EXIF- und GPS-Angaben');
    expect(text).toContain('Mediennutzung');
    expect(text).toContain('Meine Daten herunterladen');
    expect(text).toContain('Konto löschen');
    expect(within(main()).getByRole('link', { name: 'deinem Profil' }).getAttribute('href')).toBe('/profile');
  });

  it('sets its own title, description and canonical link', async () => {
    mockApi();
    await renderAt('/datenschutz');
    await screen.findByRole('heading', { level: 1, name: 'Datenschutzerklärung' });

    expect(document.title).toBe('Datenschutzerklärung – Schlosstreffen');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toContain('Rechte');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://schlosstreffen.example/datenschutz',
    );
  });
});

describe('/impressum', () => {
  it('shows the operator with address, email and phone, and links to the privacy notice', async () => {
    mockApi();
    await renderAt('/impressum');

    expect(await screen.findByRole('heading', { level: 1, name: 'Impressum' })).toBeTruthy();
    const provider = screen.getByRole('region', { name: 'Angaben gemäß § 5 DDG' });
    expect(provider.textContent).toContain('Schlosstreffen e. V.');
    expect(provider.textContent).toContain('Schlossallee 7');
    expect(provider.textContent).toContain('01234 Moritzburg');
    expect(within(provider).getByRole('link', { name: 'info@schlosstreffen.example' })).toBeTruthy();
    expect(within(provider).getByRole('link', { name: '+49 351 987654' })).toBeTruthy();
    expect(within(main()).getByRole('link', { name: 'Datenschutzerklärung' }).getAttribute('href')).toBe(
      '/datenschutz',
    );
    expect(document.title).toBe('Impressum – Schlosstreffen');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://schlosstreffen.example/impressum',
    );
  });

  it('leaves out the phone line when none is configured', async () => {
    mockApi();
    CONFIG.operator = { ...CONFIG.operator, phone: null };
    try {
      await renderAt('/impressum');
      const provider = await screen.findByRole('region', { name: 'Angaben gemäß § 5 DDG' });
      expect(provider.textContent).not.toContain('Telefon');
    } finally {
      CONFIG.operator = { ...CONFIG.operator, phone: '+49 351 987654' };
    }
  });
});

describe('footer', () => {
  it('links to the imprint and the privacy notice on every page', async () => {
    mockApi();
    await renderAt('/impressum');
    await screen.findByRole('heading', { level: 1, name: 'Impressum' });

    const legal = screen.getByRole('navigation', { name: 'Rechtliches' });
    expect(within(legal).getByRole('link', { name: 'Impressum' }).getAttribute('href')).toBe('/impressum');
    expect(within(legal).getByRole('link', { name: 'Datenschutz' }).getAttribute('href')).toBe(
      '/datenschutz',
    );
  });
});
