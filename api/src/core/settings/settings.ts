import type { EntityManager } from '@mikro-orm/postgresql';
import { Setting } from '../model/setting.entity.js';
import { upsertSetting } from './settings.queries.js';

const AUTO_MOVE_UP = 'waitlist.auto_move_up';

/** Whether freed places go to the waitlist by themselves (on unless an admin switched it off). */
export async function autoMoveUpEnabled(em: EntityManager): Promise<boolean> {
  const row = await em.findOne(Setting, { key: AUTO_MOVE_UP });
  return row ? row.value !== false : true;
}

export async function setAutoMoveUp(em: EntityManager, enabled: boolean): Promise<void> {
  await upsertSetting(em, AUTO_MOVE_UP, enabled);
}
