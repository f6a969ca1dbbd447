import { isOverPhase } from '@schlosstreffen/shared';
import { memo, useEffect } from 'react';
import { useSitePhase } from '../../lib/app-clock';
import { getSiteConfig } from '../../lib/site-config';
import { applicationDates, siteEventFacts } from '../../lib/event-format';
import { announcePageLive } from '../../lib/page-live';
import { EventInfoSection } from './event-info-section';
import { FaqSection } from './faq-section';
import { deadlineAnswer } from './public-texts';
import { HeroSection } from './hero-section';
import { HowItWorksSection } from './how-it-works-section';
import { OrganizerSection } from './organizer-section';
import { QuartettPreviewSection } from './quartett-preview-section';
import { StatsStrip } from './stats-strip';
import { ConfirmedVehiclesSection } from './vehicle-carousel';

/**
 * The public landing page, its sections top to bottom. Memoized:
 * it has no props, and the router's own state updates after the first render (route loaded,
 * status idle) would otherwise render the whole page again.
 */
export const LandingPage = memo(function LandingPage() {
  const config = getSiteConfig();
  const facts = siteEventFacts(config);
  // The sections' texts follow the current edition's phase by the app's clock.
  const phase = useSitePhase();
  const editionName = `${facts.name} ${facts.year}`;
  const deadline = deadlineAnswer({
    phase,
    editionName,
    deadlineMonth: facts.deadlineMonth,
    ...applicationDates(config),
  });

  useEffect(announcePageLive, []);

  return (
    <>
      <HeroSection
        facts={facts}
        lookBackYear={config.lookBackYear}
        introduction={config.texts?.introduction}
      />
      <StatsStrip over={isOverPhase(phase) ? editionName : null} />
      <div className="*:render-when-near">
        <ConfirmedVehiclesSection />
        <EventInfoSection facts={facts} details={config.texts?.eventDetails} />
        <OrganizerSection eventName={facts.name} />
        <QuartettPreviewSection />
        <HowItWorksSection />
        <FaqSection deadlineMonth={facts.deadlineMonth} deadlineAnswer={deadline} faq={config.texts?.faq} />
      </div>
    </>
  );
});
