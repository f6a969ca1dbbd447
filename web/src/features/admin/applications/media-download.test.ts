import { describe, expect, it } from 'vitest';
import { MEDIA_ARCHIVE_URL, mediaDownloadUrl, mediaFileName } from './media-download';

const vehicle = { name: 'Black Pearl', brand: 'BMW', model: 'M3 E46' };

describe('media downloads', () => {
  it('asks the object route for an attachment under the spec file name', () => {
    const media = { url: '/objects/uploads/u/a.jpg', createdAt: '2026-11-22T09:30:00.000Z', vehicle };
    expect(mediaFileName(media)).toBe('Black_Pearl_2026-11-22T10-30-00.jpg');
    expect(mediaDownloadUrl(media)).toBe(
      '/objects/uploads/u/a.jpg?download=Black_Pearl_2026-11-22T10-30-00.jpg',
    );
  });

  it('encodes names with umlauts and falls back to brand_model, unknown and jpg', () => {
    expect(
      mediaDownloadUrl({ url: '/objects/uploads/u/b', createdAt: null, vehicle: { name: 'Käfer & Co' } }),
    ).toBe('/objects/uploads/u/b?download=K%C3%A4fer_%26_Co_unknown.jpg');
    expect(mediaFileName({ url: '/objects/uploads/u/c', vehicle: { ...vehicle, name: null } })).toBe(
      'BMW_M3_E46_unknown.jpg',
    );
  });

  it('downloads every image from one streamed ZIP', () => {
    expect(MEDIA_ARCHIVE_URL).toBe('/api/admin/media.zip');
  });
});
