import type { EntityManager } from '@mikro-orm/postgresql';
import { destroyUserSessions } from '../../http/session-store.js';
import { enqueue } from '../../outbox/outbox.js';
import { Media } from '../media/media.entity.js';
import { mediaObjectKeys } from '../media/media.keys.js';
import { uploadPrefix } from '../uploads/object-keys.js';
import { User } from './user.entity.js';

/**
 * Deletes an account with its vehicles, media, sessions and stored objects (every upload under the
 * user's prefix and every rendition). The status log keeps its rows: they are the history.
 * Returns false when no such user exists.
 */
export async function deleteUser(em: EntityManager, userId: string, onOutbox?: () => void): Promise<boolean> {
  const deleted = await em.transactional(async (tx) => {
    const user = await tx.findOne(User, userId);
    if (!user) return false;
    const media = await tx.find(Media, { vehicle: { user: userId } });
    enqueue(tx, 'storage.delete', { keys: media.flatMap(mediaObjectKeys), prefixes: [uploadPrefix(userId)] });
    await destroyUserSessions(tx, userId);
    tx.remove(user);
    return true;
  });
  if (deleted) onOutbox?.();
  return deleted;
}
