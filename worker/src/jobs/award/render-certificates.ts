import type { EntityManager } from '@mikro-orm/postgresql';
import {
  awardCertificateTasks,
  recordAwardCertificates,
  type AwardCertificate,
} from '@schlosstreffen/api/core';
import PDFDocument from 'pdfkit';
import type { Storage } from '../../adapters/storage.js';
import sharp from '../../adapters/sharp.js';
import type { JobHandler } from '../dispatch.js';
import { registerFonts, fontName } from '../quartett-export/pdf/fonts.js';

export interface RenderCertificatesDeps {
  em: EntityManager;
  storage: Storage;
}

/** A photo larger than this is not read (a clean full-size rendition is far smaller). */
const MAX_PHOTO_BYTES = 40 * 1024 * 1024;
const MM = 72 / 25.4;
const PLACE = ['Erster Platz', 'Zweiter Platz', 'Dritter Platz'] as const;
const COLORS = { night: '#0b0a08', gold: '#b8892a', text: '#1c1a16', muted: '#5c564a' };

/** The photo as a JPEG pdfkit can place (the clean rendition may be WebP or AVIF), at most 2400 px wide. */
export async function photoJpeg(storage: Storage, key: string | null): Promise<Buffer | null> {
  if (!key) return null;
  const data = await storage.get(key, MAX_PHOTO_BYTES);
  if (!data) return null;
  try {
    return await sharp(data)
      .rotate()
      .resize({ width: 2400, withoutEnlargement: true })
      .jpeg({ quality: 88 })
      .toBuffer();
  } catch {
    return null;
  }
}

/**
 * One 'Urkunde' as an A4 portrait PDF: 'Publikumsliebling {Jahr}', the place, the car's photo,
 * name, start number and votes, and the edition's name.
 */
export async function renderCertificate(
  certificate: AwardCertificate,
  photo: Buffer | null,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    info: { Title: `${certificate.title} – ${certificate.name}`, Author: certificate.editionName },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  const width = doc.page.width;
  const height = doc.page.height;
  const margin = 20 * MM;
  const inner = width - 2 * margin;
  const regular = fontName('latin', 400);
  const bold = fontName('latin', 700);

  doc.rect(0, 0, width, height).fill('#fbf8f1');
  doc
    .lineWidth(2)
    .rect(10 * MM, 10 * MM, width - 20 * MM, height - 20 * MM)
    .stroke(COLORS.gold);
  doc
    .lineWidth(0.6)
    .rect(12 * MM, 12 * MM, width - 24 * MM, height - 24 * MM)
    .stroke(COLORS.gold);

  let y = 28 * MM;
  doc
    .font(bold)
    .fontSize(34)
    .fillColor(COLORS.night)
    .text('Urkunde', margin, y, { width: inner, align: 'center' });
  y += 18 * MM;
  doc
    .font(bold)
    .fontSize(22)
    .fillColor(COLORS.gold)
    .text(certificate.title, margin, y, { width: inner, align: 'center' });
  y += 12 * MM;
  doc
    .font(regular)
    .fontSize(16)
    .fillColor(COLORS.text)
    .text(PLACE[certificate.rank - 1] ?? `${certificate.rank}. Platz`, margin, y, {
      width: inner,
      align: 'center',
    });
  y += 12 * MM;

  const photoHeight = 95 * MM;
  if (photo) {
    doc.image(photo, margin, y, { fit: [inner, photoHeight], align: 'center', valign: 'center' });
  } else {
    doc.rect(margin, y, inner, photoHeight).fill('#ece5d4');
  }
  y += photoHeight + 10 * MM;

  doc
    .font(bold)
    .fontSize(26)
    .fillColor(COLORS.night)
    .text(certificate.name, margin, y, { width: inner, align: 'center' });
  y = doc.y + 4 * MM;
  doc
    .font(regular)
    .fontSize(15)
    .fillColor(COLORS.text)
    .text(`Startnummer ${certificate.startNumber}`, margin, y, { width: inner, align: 'center' });
  y = doc.y + 3 * MM;
  const votes = certificate.votes === 1 ? '1 Stimme' : `${certificate.votes} Stimmen`;
  doc.text(`${votes} der Besucherinnen und Besucher`, margin, y, { width: inner, align: 'center' });

  doc
    .font(regular)
    .fontSize(13)
    .fillColor(COLORS.muted)
    .text(certificate.editionName, margin, height - 36 * MM, { width: inner, align: 'center' });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Renders the certificates of an edition's first three once its voting closed and records their
 * keys. Idempotent: a run again writes the same objects under the same keys.
 */
export function createRenderCertificates(deps: RenderCertificatesDeps): JobHandler<'award.certificates'> {
  return async ({ editionId }) => {
    const tasks = await awardCertificateTasks(deps.em.fork(), editionId);
    const keys: Record<string, string> = {};
    for (const task of tasks) {
      const pdf = await renderCertificate(task, await photoJpeg(deps.storage, task.photoKey));
      await deps.storage.put(task.key, pdf, {
        contentType: 'application/pdf',
        cacheControl: 'private, no-store',
      });
      keys[task.vehicleId] = task.key;
    }
    if (tasks.length) await recordAwardCertificates(deps.em, editionId, keys);
    return { certificates: tasks.length };
  };
}
