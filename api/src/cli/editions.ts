/** The CLI's edition commands: list, create, open and make current (the last two at a set moment). */
import { EDITION_PHASE_LABELS, venueDateTime } from '@schlosstreffen/shared';
import { loadDatabaseUrl } from '../core/config.js';
import { initOrm } from '../core/db/orm.js';
import {
  createEdition,
  currentEdition,
  listEditions,
  makeCurrent,
  openApplications,
  phasesOf,
} from '../core/editions/editions.js';
import type { Edition } from '../core/model/edition.entity.js';
import { momentArgument, optionValue } from './arguments.js';

const describe = (edition: Edition) =>
  `${edition.year}  ${edition.name}: ${venueDateTime(edition.startsAt)} – ${venueDateTime(edition.endsAt)}, ` +
  `Bewerbungsschluss ${edition.applicationDeadline}, Parkzonen ${edition.parkingZones
    .map((zone) => `${zone.name}:${zone.capacity}`)
    .join(',')}`;

export async function editionCommand(command: string, args: string[], usage: string): Promise<number> {
  const year = Number(args[0]);
  const moment = momentArgument(args, command === 'edition:list' ? '--as-of' : '--at');
  if ((command !== 'edition:list' && !Number.isInteger(year)) || !moment) {
    console.error(usage);
    return 2;
  }
  const orm = await initOrm(loadDatabaseUrl());
  try {
    const em = orm.em.fork();
    switch (command) {
      case 'edition:list': {
        const editions = await listEditions(em);
        const phases = await phasesOf(em, editions, moment);
        const current = await currentEdition(em, moment);
        for (const edition of editions) {
          const phase = EDITION_PHASE_LABELS[phases.get(edition.id)!];
          console.log(`${describe(edition)}; ${phase}${edition.id === current.id ? ', aktuell' : ''}`);
        }
        return 0;
      }
      case 'edition:create': {
        const date = (flag: string) => {
          const value = optionValue(args, flag);
          return value === undefined ? undefined : new Date(value);
        };
        const from = optionValue(args, '--from');
        const edition = await createEdition(em, {
          year,
          from: from === undefined ? undefined : Number(from),
          start: date('--start'),
          end: date('--end'),
          deadline: optionValue(args, '--deadline'),
        });
        console.log(`created ${describe(edition)}; ${EDITION_PHASE_LABELS.preparation}`);
        return 0;
      }
      case 'edition:open': {
        const edition = await openApplications(em, year, moment);
        console.log(`applications of ${edition.name} open at ${venueDateTime(moment)}`);
        return 0;
      }
      default: {
        const edition = await makeCurrent(em, year, moment);
        console.log(`the public site shows ${edition.name} from ${venueDateTime(moment)}`);
        return 0;
      }
    }
  } finally {
    await orm.close();
  }
}
