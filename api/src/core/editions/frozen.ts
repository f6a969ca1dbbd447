/**
 * The frozen past: from the end of its meeting (or once a later edition is current) an edition's
 * applications, photos, reviews and invitations stay as they were. Every use case that changes one
 * asks here first; what the platform does for data protection (consent withdrawal, account deletion,
 * retention), gate scans made during the meeting and an admin's correction with a reason do not.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { EDITION_MESSAGES, editionPhaseAt, isOverPhase, type EditionPhase } from '@schlosstreffen/shared';
import { conflict } from '../errors.js';
import { Edition } from '../model/edition.entity.js';
import { currentOf } from './edition-events.js';
import { momentsOf } from './editions.js';

/** Who is told: an owner (du) or staff (Sie). */
export type FrozenAudience = 'owner' | 'staff';

/** The edition's phase at `at`, read in the caller's transaction. */
export async function editionPhaseOf(
  em: EntityManager,
  editionId: string,
  at: Date,
): Promise<{ edition: Edition; phase: EditionPhase }> {
  const editions = await em.find(Edition, {});
  const edition = editions.find((row) => row.id === editionId);
  if (!edition) throw new Error(`Unknown edition ${editionId}`);
  return { edition, phase: editionPhaseAt(momentsOf(edition, currentOf(editions, at)), at) };
}

/** Whether the edition is over at `at` ('over' or 'archived'): its record is frozen. */
export async function isEditionOver(em: EntityManager, editionId: string, at: Date): Promise<boolean> {
  return isOverPhase((await editionPhaseOf(em, editionId, at)).phase);
}

/**
 * Refuses (409, in German, naming the edition) a change of an application, photo, review or
 * invitation of an edition that is over at `at`.
 */
export async function assertEditionOpenForChanges(
  em: EntityManager,
  editionId: string,
  at: Date,
  audience: FrozenAudience,
): Promise<void> {
  const { edition, phase } = await editionPhaseOf(em, editionId, at);
  if (!isOverPhase(phase)) return;
  throw conflict(
    audience === 'owner'
      ? EDITION_MESSAGES.frozenForOwner(edition.name)
      : EDITION_MESSAGES.frozenForStaff(edition.name),
  );
}
