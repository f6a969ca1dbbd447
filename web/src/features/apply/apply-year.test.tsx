import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import type * as UploaderModule from '../media/use-image-uploader';
import { installDomShims, lena, renderRoute, stubApi } from '../vehicle-form/test-helpers';

vi.mock('../media/use-image-uploader', async (importOriginal) => {
  const original = await importOriginal<typeof UploaderModule>();
  const { useFakeImageUploader } = await import('../vehicle-form/fake-image-uploader');
  return { ...original, useImageUploader: useFakeImageUploader };
});

// The server configured the 2027 edition, as it writes it into index.html; hoisted, so the page's
// modules read it when they are imported.
await vi.hoisted(async () => {
  const { DEFAULT_SITE_CONFIG, SITE_CONFIG_ELEMENT_ID } = await import('@schlosstreffen/shared');
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = SITE_CONFIG_ELEMENT_ID;
  script.textContent = JSON.stringify({
    ...DEFAULT_SITE_CONFIG,
    eventStart: '2027-06-19T10:00:00+02:00',
    eventEnd: '2027-06-19T20:00:00+02:00',
  });
  document.head.append(script);
});

beforeEach(() => {
  installDomShims();
  stubApi({ 'GET /api/auth/user': { body: lena }, 'GET /api/vehicles': { body: [] } });
});

afterEach(() => {
  cleanup();
  toaster.remove();
  vi.unstubAllGlobals();
});

describe('/apply with the next edition configured', () => {
  it("takes cars up to the event's year and names it when refusing", async () => {
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    const year = screen.getByLabelText('Baujahr *');
    expect(year.getAttribute('max')).toBe('2027');
    await user.type(screen.getByLabelText('Marke *'), 'Cupra');
    await user.type(screen.getByLabelText('Modell *'), 'Born');

    await user.clear(year);
    await user.type(year, '2028');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(await screen.findByText('Baujahr muss zwischen 1950 und 2027 liegen')).toBeTruthy();

    await user.clear(year);
    await user.type(year, '2027');
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(await screen.findByRole('heading', { name: 'Leistungsdaten' })).toBeTruthy();
  });
});
