import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { flattenIssues } from './issues.js';
import { MediaCreateSchema, MediaUpdateSchema, UploadRequestSchema } from './media.js';

function issuesOf(schema: v.GenericSchema, input: unknown) {
  const result = v.safeParse(schema, input);
  return result.success ? [] : flattenIssues(result.issues);
}

const MEDIA_ID = '3f2b8c1e-6d4a-4f3b-9a1c-2e5d7f8a9b0c';

describe('MediaCreateSchema', () => {
  it("defaults type to 'image' and keeps crop values optional", () => {
    expect(v.parse(MediaCreateSchema, { url: '/objects/uploads/u1/a.jpg', isHero: true })).toEqual({
      type: 'image',
      url: '/objects/uploads/u1/a.jpg',
      isHero: true,
    });
  });

  it('parses crop values sent as text and clamps them into range', () => {
    expect(
      v.parse(MediaCreateSchema, { url: '/objects/a.jpg', cropX: '12.345', cropY: -5, scale: '250' }),
    ).toMatchObject({ cropX: 12.35, cropY: 0, scale: 200 });
    expect(
      v.parse(MediaCreateSchema, { url: '/objects/a.jpg', cropX: 150, cropY: '50', scale: 50 }),
    ).toMatchObject({ cropX: 100, cropY: 50, scale: 100 });
  });

  it('rejects crop values that are not numbers', () => {
    expect(issuesOf(MediaCreateSchema, { url: '/objects/a.jpg', cropX: 'links' })).toEqual([
      { field: 'cropX', message: 'Bitte geben Sie einen gültigen Wert ein' },
    ]);
  });

  it('requires an object path under /objects/ without traversal', () => {
    for (const url of [
      'https://evil.example/a.jpg',
      '/objects/',
      '/objects/../secret',
      '/objects/a//b',
      42,
    ]) {
      expect(issuesOf(MediaCreateSchema, { url })).toEqual([
        { field: 'url', message: 'Ungültiger Objektpfad' },
      ]);
    }
  });

  it('rejects unknown media types', () => {
    expect(issuesOf(MediaCreateSchema, { url: '/objects/a.jpg', type: 'audio' })).toEqual([
      { field: 'type', message: 'Ungültiger Medientyp' },
    ]);
  });
});

describe('MediaUpdateSchema', () => {
  it('accepts a list of updates', () => {
    expect(
      v.parse(MediaUpdateSchema, { updates: [{ id: MEDIA_ID, isHero: true, cropX: '40', scale: 120 }] }),
    ).toEqual({ updates: [{ id: MEDIA_ID, isHero: true, cropX: 40, scale: 120 }] });
  });

  it('reports invalid ids with their path', () => {
    expect(issuesOf(MediaUpdateSchema, { updates: [{ id: MEDIA_ID }, { id: 'nope' }] })).toEqual([
      { field: 'updates.1.id', message: 'Ungültige Medien-ID' },
    ]);
  });
});

describe('UploadRequestSchema', () => {
  const upload = { filename: 'auto.jpg', type: 'image/jpeg', size: 1024 };

  it('accepts every decodable image type in any case, up to 10 MB', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'IMAGE/AVIF', 'image/gif']) {
      expect(v.safeParse(UploadRequestSchema, { ...upload, type }).success).toBe(true);
    }
    expect(v.safeParse(UploadRequestSchema, { ...upload, size: 10_485_760 }).success).toBe(true);
  });

  it("reports 'Nur Bilddateien sind erlaubt.' for other types", () => {
    for (const type of ['application/pdf', 'image/svg+xml', 'image/heic', 'video/mp4', '']) {
      expect(issuesOf(UploadRequestSchema, { ...upload, type })).toEqual([
        { field: 'type', message: 'Nur Bilddateien sind erlaubt.' },
      ]);
    }
  });

  it("reports 'Das Bild darf höchstens 10 MB groß sein.' above 10485760 bytes", () => {
    expect(issuesOf(UploadRequestSchema, { ...upload, size: 10_485_761 })).toEqual([
      { field: 'size', message: 'Das Bild darf höchstens 10 MB groß sein.' },
    ]);
  });

  it('rejects empty files and missing names', () => {
    expect(issuesOf(UploadRequestSchema, { ...upload, filename: ' ', size: 0 })).toEqual([
      { field: 'filename', message: 'Dateiname ist erforderlich' },
      { field: 'size', message: 'Die Datei ist leer.' },
    ]);
  });
});
