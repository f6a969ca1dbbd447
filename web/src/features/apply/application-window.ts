import { applicationWindowRefusal, eventYear } from '@schlosstreffen/shared';
import { appNow } from '../../lib/app-clock';
import { getSiteConfig } from '../../lib/site-config';

/**
 * Why the current edition takes no application now, by the app's clock (German), or null while its
 * window is open. Only the server's data block states the window; without it (dev server, tests)
 * the wizard is shown and the server decides.
 */
export function applicationsRefusal(at: Date = new Date(appNow())): string | null {
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
