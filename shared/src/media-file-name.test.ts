import { describe, expect, it } from 'vitest';
import { mediaExtension, mediaFileName, mediaTimestamp, sanitizeFileNamePart } from './media-file-name.js';

const url = '/objects/uploads/7d8e0c3a-1111-4222-8333-944455556666/0b1c2d3e-aaaa-4bbb-8ccc-dddd00001111.jpg';
const vehicle = { name: 'Black Pearl', brand: 'BMW', model: 'M3 E46' };
// 09:30:00 UTC is 10:30:00 in Berlin in November (CET).
const createdAt = '2026-11-22T09:30:00.000Z';

describe('mediaFileName', () => {
  it('joins the vehicle name, the upload timestamp and the extension', () => {
    expect(mediaFileName({ url, createdAt, vehicle })).toBe('Black_Pearl_2026-11-22T10-30-00.jpg');
  });

  it('uses brand_model when the vehicle has no name', () => {
    expect(mediaFileName({ url, createdAt, vehicle: { ...vehicle, name: null } })).toBe(
      'BMW_M3_E46_2026-11-22T10-30-00.jpg',
    );
    expect(mediaFileName({ url, createdAt, vehicle: { ...vehicle, name: '   ' } })).toBe(
      'BMW_M3_E46_2026-11-22T10-30-00.jpg',
    );
  });

  it("writes 'unknown' without an upload timestamp", () => {
    expect(mediaFileName({ url, vehicle })).toBe('Black_Pearl_unknown.jpg');
    expect(mediaFileName({ url, createdAt: null, vehicle })).toBe('Black_Pearl_unknown.jpg');
    expect(mediaFileName({ url, createdAt: 'kein Datum', vehicle })).toBe('Black_Pearl_unknown.jpg');
  });

  it('keeps the original extension in lower case and defaults to jpg', () => {
    expect(mediaFileName({ url: '/objects/uploads/u/a.PNG', createdAt, vehicle })).toBe(
      'Black_Pearl_2026-11-22T10-30-00.png',
    );
    expect(mediaFileName({ url: '/objects/uploads/u/a.webp', createdAt, vehicle })).toMatch(/\.webp$/);
    expect(mediaFileName({ url: '/objects/uploads/u/no-extension', createdAt, vehicle })).toMatch(/\.jpg$/);
    expect(mediaFileName({ url: '/objects/uploads/u.d/file', createdAt, vehicle })).toMatch(/\.jpg$/);
  });

  it('replaces whitespace by underscores', () => {
    expect(mediaFileName({ url, createdAt, vehicle: { name: ' Die  rote\tZora ' } })).toBe(
      'Die_rote_Zora_2026-11-22T10-30-00.jpg',
    );
  });

  it('removes characters that are illegal in file names', () => {
    expect(
      mediaFileName({ url, createdAt, vehicle: { name: 'AC/DC: "Highway" <to> Hell?*|\\\u0007' } }),
    ).toBe('ACDC_Highway_to_Hell_2026-11-22T10-30-00.jpg');
    expect(mediaFileName({ url, createdAt, vehicle: { name: 'Porsche 911 / 964' } })).toBe(
      'Porsche_911_964_2026-11-22T10-30-00.jpg',
    );
    // Nothing usable left in the name: brand_model instead.
    expect(mediaFileName({ url, createdAt, vehicle: { ...vehicle, name: '??' } })).toBe(
      'BMW_M3_E46_2026-11-22T10-30-00.jpg',
    );
    expect(mediaFileName({ url, createdAt, vehicle: null })).toBe('bild_2026-11-22T10-30-00.jpg');
  });

  it('keeps umlauts and other letters', () => {
    expect(mediaFileName({ url, createdAt, vehicle: { name: 'Flügeltür Käfer' } })).toBe(
      'Flügeltür_Käfer_2026-11-22T10-30-00.jpg',
    );
  });
});

describe('mediaTimestamp', () => {
  it('writes the wall clock in Berlin, summer and winter, with dashes instead of colons', () => {
    expect(mediaTimestamp('2026-06-20T08:05:09.000Z')).toBe('2026-06-20T10-05-09');
    expect(mediaTimestamp(new Date('2026-01-01T23:59:59.000Z'))).toBe('2026-01-02T00-59-59');
    expect(mediaTimestamp(undefined)).toBe('unknown');
  });
});

describe('mediaExtension', () => {
  it('reads the last path segment only', () => {
    expect(mediaExtension('/objects/uploads/u/photo.JPEG')).toBe('jpeg');
    expect(mediaExtension('/objects/uploads/u/photo.jpg?download=1')).toBe('jpg');
    expect(mediaExtension('')).toBe('jpg');
  });
});

describe('sanitizeFileNamePart', () => {
  it('trims dots and underscores at the ends and caps the length', () => {
    expect(sanitizeFileNamePart('...versteckt.')).toBe('versteckt');
    expect(sanitizeFileNamePart('a'.repeat(300))).toHaveLength(100);
  });
});
