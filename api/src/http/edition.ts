import { EditionQuerySchema } from '@schlosstreffen/shared';
import { chosenEdition, type EditionEvent, type EventSource } from '../core/editions/edition-events.js';
import { requestNow, type AppContext } from './context.js';
import { validate } from './validate.js';

/**
 * The edition a staff screen works on: `?edition=2026`, else the one current now. Past editions are
 * read like the current one.
 */
export async function editionOfRequest(ctx: AppContext, events: EventSource): Promise<EditionEvent> {
  const { edition } = validate(EditionQuerySchema, ctx.query);
  const chosen = await chosenEdition(events, edition, requestNow(ctx));
  ctx.state.editionYear = chosen.edition.year;
  return chosen;
}
