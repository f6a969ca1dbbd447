import { memo, useEffect } from 'react';
import { getSiteConfig } from '../../lib/site-config';
import { siteEventFacts } from '../../lib/event-format';
import { announcePageLive } from '../../lib/page-live';
import { EventInfoSection } from './event-info-section';
import { FaqSection } from './faq-section';
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

  useEffect(announcePageLive, []);

  return (
    <>
      <HeroSection
        facts={facts}
        lookBackYear={config.lookBackYear}
        introduction={config.texts?.introduction}
      />
      <StatsStrip />
      <div className="*:render-when-near">
        <ConfirmedVehiclesSection />
        <EventInfoSection facts={facts} details={config.texts?.eventDetails} />
        <OrganizerSection eventName={facts.name} />
        <QuartettPreviewSection />
        <HowItWorksSection />
        <FaqSection deadlineMonth={facts.deadlineMonth} faq={config.texts?.faq} />
      </div>
    </>
  );
});
