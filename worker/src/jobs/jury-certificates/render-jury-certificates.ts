import type { EntityManager } from '@mikro-orm/postgresql';
import {
  juryCertificateTasks,
  recordJuryCertificates,
  type JuryCertificatesPlan,
} from '@schlosstreffen/api/core';
import PDFDocument from 'pdfkit';
import type { Storage } from '../../adapters/storage.js';
import { photoJpeg } from '../award/render-certificates.js';
import type { JobHandler } from '../dispatch.js';
import { pt } from '../../pdf/print-marks.js';
import { fontName, registerFonts } from '../quartett-export/pdf/fonts.js';

export interface RenderJuryCertificatesDeps {
  em: EntityManager;
  storage: Storage;
}

const COLORS = {
  paper: '#fbf8f1',
  night: '#0b0a08',
  gold: '#b8892a',
  text: '#1c1a16',
  muted: '#5c564a',
  empty: '#ece5d4',
};

/**
 * The jury's 'Urkunden' of an edition as one A4 portrait PDF, a page per awarded place (classes in
 * their order, places from the first): 'Urkunde', the place, the class, the car's photo (where
 * given), its name and start number, the edition. `photos` maps a photo key to its JPEG.
 */
export async function renderJuryCertificates(
  plan: JuryCertificatesPlan,
  photos: ReadonlyMap<string, Buffer>,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    autoFirstPage: false,
    info: { Title: `Urkunden der Jury – ${plan.editionName}`, Author: plan.editionName },
  });
  registerFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve) => doc.on('end', resolve));
  const regular = fontName('latin', 400);
  const bold = fontName('latin', 700);

  for (const certificate of plan.certificates) {
    doc.addPage({ size: 'A4', margin: 0 });
    const width = doc.page.width;
    const height = doc.page.height;
    const margin = pt(20);
    const inner = width - 2 * margin;
    const centered = { width: inner, align: 'center' as const };

    doc.rect(0, 0, width, height).fill(COLORS.paper);
    doc
      .lineWidth(2)
      .rect(pt(10), pt(10), width - pt(20), height - pt(20))
      .stroke(COLORS.gold);
    doc
      .lineWidth(0.6)
      .rect(pt(12), pt(12), width - pt(24), height - pt(24))
      .stroke(COLORS.gold);

    let y = pt(28);
    doc.font(bold).fontSize(34).fillColor(COLORS.night).text('Urkunde', margin, y, centered);
    y += pt(18);
    doc
      .font(bold)
      .fontSize(22)
      .fillColor(COLORS.gold)
      .text(`${certificate.place}. Platz`, margin, y, centered);
    y += pt(11);
    doc
      .font(regular)
      .fontSize(17)
      .fillColor(COLORS.text)
      .text(`${certificate.className} ${certificate.year}`, margin, y, centered);
    y = Math.max(doc.y, y + pt(8)) + pt(5);

    const photoHeight = pt(95);
    const photo = certificate.photoKey ? photos.get(certificate.photoKey) : undefined;
    if (photo) doc.image(photo, margin, y, { fit: [inner, photoHeight], align: 'center', valign: 'center' });
    else doc.rect(margin, y, inner, photoHeight).fill(COLORS.empty);
    y += photoHeight + pt(10);

    doc.font(bold).fontSize(26).fillColor(COLORS.night).text(certificate.carName, margin, y, centered);
    y = doc.y + pt(4);
    doc
      .font(regular)
      .fontSize(15)
      .fillColor(COLORS.text)
      .text(`Startnummer ${certificate.startNumber}`, margin, y, centered);
    y = doc.y + pt(3);
    doc.text('ausgezeichnet von der Jury', margin, y, centered);

    doc
      .font(regular)
      .fontSize(13)
      .fillColor(COLORS.muted)
      .text(certificate.editionName, margin, height - pt(36), centered);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * Renders the certificates of an edition's published results for the job's version and records
 * the file on the jury. A job of an older version renders nothing (a newer publication or
 * correction has its own job); one outdated while it rendered removes its file again. Safe to run
 * twice: the same file under the same key.
 */
export function createRenderJuryCertificates(
  deps: RenderJuryCertificatesDeps,
): JobHandler<'jury.certificates'> {
  return async ({ editionId, version }) => {
    const plan = await juryCertificateTasks(deps.em.fork(), editionId, version);
    if (!plan) return { outdated: true };
    if (plan.certificates.length === 0) return { pages: 0 };
    const photos = new Map<string, Buffer>();
    for (const key of new Set(plan.certificates.flatMap((c) => (c.photoKey ? [c.photoKey] : [])))) {
      const jpeg = await photoJpeg(deps.storage, key);
      if (jpeg) photos.set(key, jpeg);
    }
    const pdf = await renderJuryCertificates(plan, photos);
    await deps.storage.put(plan.key, pdf, {
      contentType: 'application/pdf',
      cacheControl: 'private, no-store',
    });
    if (!(await recordJuryCertificates(deps.em, editionId, version, plan.key))) {
      await deps.storage.deleteMany([plan.key]);
      return { outdated: true };
    }
    return { pages: plan.certificates.length };
  };
}
