import { createContext, useContext } from 'react';

/** What every mail links to besides its content: the site's address (privacy notice, imprint). */
export interface MailSite {
  publicUrl: string;
}

export const PREVIEW_SITE: MailSite = { publicUrl: 'http://localhost:3000' };

export const MailSiteContext = createContext<MailSite>(PREVIEW_SITE);

export const useMailSite = () => useContext(MailSiteContext);
