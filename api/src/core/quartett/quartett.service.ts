import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { QUARTETT_MESSAGES } from '@schlosstreffen/shared';
import { invalid, conflict, notFound } from '../errors.js';
import { enqueue } from '../outbox/outbox.js';
import type { User } from '../model/user.entity.js';
import { Vehicle } from '../model/vehicle.entity.js';
import { QuartettSet } from '../model/quartett-set.entity.js';
import { lockSetVehicles } from './quartett.queries.js';
import type { PendingAudit } from '../pending-audit.js';

export interface QuartettServiceOptions {
  /** Called after a commit that wrote outbox rows (wakes the relay). */
  onOutbox?: () => void;
}

/** Quartett print sets: start an export (a new version), list them, release one. */
export class QuartettService {
  constructor(
    private readonly em: EntityManager,
    private readonly options: QuartettServiceOptions = {},
  ) {}

  /** Newest version first. */
  /** The edition's sets, newest version first. */
  list(editionId: string): Promise<QuartettSet[]> {
    return this.em.find(QuartettSet, { edition: editionId }, { orderBy: { version: 'desc' } });
  }

  async get(id: string): Promise<QuartettSet> {
    const set = await this.em.findOne(QuartettSet, { id }, { refresh: true });
    if (!set) throw notFound(QUARTETT_MESSAGES.setNotFound);
    return set;
  }

  /** A new version of the edition's cards, queued for the export job in the same transaction. */
  async create(
    user: User,
    input: { title: string },
    editionId: string,
    audit?: PendingAudit,
  ): Promise<QuartettSet> {
    const set = await this.em.transactional(async (em) => {
      if (!(await em.count(Vehicle, { edition: editionId, status: 'confirmed' }))) {
        throw invalid(QUARTETT_MESSAGES.noConfirmedVehicles);
      }
      const set = em.create(QuartettSet, {
        edition: editionId,
        title: input.title,
        createdBy: user.id,
        status: 'queued',
      });
      await em.flush();
      // The version comes from a database sequence.
      await em.refresh(set);
      enqueue(em, 'quartett.export', { setId: set.id });
      audit?.record(em, { details: { set: set.id, version: set.version } });
      return set;
    });
    this.options.onOutbox?.();
    return set;
  }

  /**
   * Marks a ready set as released, once; from then on its vehicles' data is locked. Takes the rows
   * of those vehicles, so edits that are under way finish first and later ones see the release.
   */
  async release(id: string, audit?: PendingAudit): Promise<QuartettSet> {
    return this.em.transactional(async (em) => {
      const set = await em.findOne(QuartettSet, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!set) throw notFound(QUARTETT_MESSAGES.setNotFound);
      if (set.releasedAt) throw conflict(QUARTETT_MESSAGES.alreadyReleased);
      if (set.status !== 'ready') throw conflict(QUARTETT_MESSAGES.notReady);
      await lockSetVehicles(em, set.id);
      set.releasedAt = new Date();
      audit?.record(em);
      return set;
    });
  }
}
