import type { EntityManager } from '@mikro-orm/postgresql';
import { CAR_PAGE_MESSAGES, instagramAt, publicAwardAt } from '@schlosstreffen/shared';
import type { CarPage, PublicVehicle } from '@schlosstreffen/shared/api';
import { notFound } from '../errors.js';
import { objectPathOf } from '../storage/objects.js';
import { carPageRow } from './public-list.queries.js';

const momentOf = (value: Date | string | null) => (value === null ? null : new Date(value));

/**
 * The public page of the confirmed car holding `startNumber` at the meeting of `year`: as its edition's
 * public list holds it (for a past edition, the list as it was then). A car whose owner did not consent
 * to showing its images gets its number, brand and model only; a number no confirmed car holds is not
 * found. Its voting is as anyone sees it at `at`, and none once the meeting ended without voting.
 */
export async function carPage(
  em: EntityManager,
  year: number,
  startNumber: number,
  at: Date,
): Promise<CarPage> {
  const row = await carPageRow(em, year, startNumber);
  if (!row) throw notFound(CAR_PAGE_MESSAGES.notFound(year, startNumber));
  const handle = row.instagram_handle;
  const endsAt = new Date(row.ends_at);
  const award = {
    opensAt: momentOf(row.award_opens_at),
    closesAt: momentOf(row.award_closes_at),
    openedAt: momentOf(row.award_opened_at),
    closedAt: momentOf(row.award_closed_at),
  };
  return {
    edition: {
      year: row.year,
      name: row.name,
      startsAt: new Date(row.starts_at).toISOString(),
      endsAt: endsAt.toISOString(),
      place: row.place,
    },
    startNumber: row.start_number,
    brand: row.brand,
    model: row.model,
    vehicle: (row.data as PublicVehicle | null) ?? null,
    story: row.story?.trim() || null,
    instagramHandle: handle ? instagramAt(handle) : null,
    shareImageUrl: row.share_image ? objectPathOf(row.share_image) : null,
    // None for a meeting over whose voting never opened, by an admin or at a set moment before its end.
    award:
      at >= endsAt && !award.openedAt && !(award.opensAt && award.opensAt < endsAt)
        ? null
        : publicAwardAt(award, { endsAt }, at),
  };
}
