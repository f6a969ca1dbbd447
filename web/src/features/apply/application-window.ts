import { applicationWindowRefusal, eventYear } from '@schlosstreffen/shared';
import { getSiteConfig } from '../../lib/site-config';

/**
 * Why the current edition takes no application now (German), or null while its window is open. Only
 * the server's data block states the window; without it (dev server, tests) the wizard is shown and
 * the server decides.
 */
export function applicationsRefusal(at: Date = new Date()): string | null {
  const config = getSiteConfig();
  if (config.applicationsOpenAt === undefined) return null;
  return applicationWindowRefusal(
    {
      name: `${config.eventName} ${eventYear(config.eventStart)}`,
      applicationsOpenAt: config.applicationsOpenAt === null ? null : new Date(config.applicationsOpenAt),
      applicationDeadline: config.applicationDeadline,
    },
    at,
  );
}
