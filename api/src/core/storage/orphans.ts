import type { EntityManager } from '@mikro-orm/postgresql';
import { DataExport } from '../model/data-export.entity.js';
import { Upload } from '../model/upload.entity.js';
import { Media } from '../model/media.entity.js';
import { SignExport } from '../model/sign-export.entity.js';
import { PublicVehicle } from '../model/public-vehicle.entity.js';
import { Jury } from '../model/jury.entity.js';
import { keyOf, objectPathOf, parseKey } from './objects.js';

/**
 * Where the objects lie that a row names one by one (uploads, data export ZIPs, windshield sign
 * PDFs): retention's sweep looks here for objects no row names, e.g. an upload PUT with a signed URL
 * after its account was deleted, the ZIP of an export job that died after storing it, or the sign
 * of a car deleted since, or a jury's certificates of results that were corrected while it was drawn.
 */
export const ORPHAN_PREFIXES = [
  'uploads/',
  'exports/accounts/',
  'exports/signs/',
  'exports/jury/',
  'share/',
] as const;

const BATCH = 1000;

/**
 * Of these keys, the uploads and data export ZIPs that no row names: an upload without its upload
 * record (the record goes with its account) that no image names, a ZIP without its export, a car's
 * link preview its list row does not name.
 * Keys of any other kind are never returned.
 */
export async function unnamedKeys(em: EntityManager, keys: readonly string[]): Promise<string[]> {
  const fork = em.fork();
  const unnamed: string[] = [];
  for (let start = 0; start < keys.length; start += BATCH) {
    const batch = keys.slice(start, start + BATCH);
    const uploads: string[] = [];
    const exports = new Map<string, string>();
    const signs = new Map<string, string>();
    const shares: string[] = [];
    const juries: string[] = [];
    for (const key of batch) {
      const object = parseKey(key);
      if (object?.kind === 'upload') uploads.push(key);
      else if (object?.kind === 'account-export') exports.set(object.exportId, key);
      else if (object?.kind === 'sign') signs.set(object.exportId, key);
      else if (object?.kind === 'share') shares.push(key);
      else if (object?.kind === 'jury') juries.push(key);
    }
    const named = new Set<string>();
    if (uploads.length) {
      const records = await fork.find(Upload, { key: { $in: uploads } }, { fields: ['key'] });
      for (const record of records) named.add(record.key);
      // An image waiting to be cleaned names its upload, and an image stored before clean copies
      // existed names it as its URL.
      const media = await fork.find(
        Media,
        { $or: [{ uploadKey: { $in: uploads } }, { url: { $in: uploads.map(objectPathOf) } }] },
        { fields: ['uploadKey', 'url'] },
      );
      for (const item of media) {
        if (item.uploadKey) named.add(item.uploadKey);
        const key = keyOf(item.url);
        if (key) named.add(key);
      }
    }
    if (exports.size) {
      const rows = await fork.find(DataExport, { id: { $in: [...exports.keys()] } }, { fields: ['id'] });
      for (const row of rows) named.add(exports.get(row.id)!);
    }
    if (signs.size) {
      const rows = await fork.find(SignExport, { id: { $in: [...signs.keys()] } }, { fields: ['id'] });
      for (const row of rows) named.add(signs.get(row.id)!);
    }
    if (shares.length) {
      // A car's link preview: only the one its list row names (a replaced one, a car gone from the list).
      const rows = await fork.find(
        PublicVehicle,
        { shareImage: { $in: shares } },
        { fields: ['shareImage'] },
      );
      for (const row of rows) named.add(row.shareImage!);
    }
    if (juries.length) {
      // A jury's certificates: only the file its jury row names (a replaced version is not).
      const rows = await fork.find(
        Jury,
        { certificatesKey: { $in: juries } },
        { fields: ['certificatesKey'] },
      );
      for (const row of rows) named.add(row.certificatesKey!);
    }
    unnamed.push(
      ...[...uploads, ...exports.values(), ...signs.values(), ...shares, ...juries].filter(
        (key) => !named.has(key),
      ),
    );
  }
  return unnamed;
}
