import type { ReactNode } from 'react';
import { FacebookIcon, InstagramIcon } from './icons';
import { ORGANIZER_SOCIAL_LINKS, type SocialNetwork } from '../lib/organizer';

type SocialLink = (typeof ORGANIZER_SOCIAL_LINKS)[number];
type SocialIcon = typeof InstagramIcon;

const SOCIAL_ICONS: Record<SocialNetwork, SocialIcon> = {
  instagram: InstagramIcon,
  facebook: FacebookIcon,
};

/**
 * The organizer's social profiles as a list of links that open in a new tab: the header menu, the
 * footer and the landing page's FAQ and organizer sections. Each link shows its icon and label with
 * a hidden new-tab hint, unless `children` draws its content; `linkLabel` names icon-only links.
 */
export function SocialLinks({
  className,
  linkClassName,
  iconClassName,
  linkLabel,
  children,
}: {
  className: string;
  linkClassName: string;
  iconClassName?: string;
  linkLabel?: (link: SocialLink) => string;
  children?: (link: SocialLink, Icon: SocialIcon) => ReactNode;
}) {
  return (
    <ul className={className}>
      {ORGANIZER_SOCIAL_LINKS.map((link) => {
        const Icon = SOCIAL_ICONS[link.network];
        return (
          <li key={link.network}>
            <a
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              aria-label={linkLabel?.(link)}
              className={linkClassName}
            >
              {children ? (
                children(link, Icon)
              ) : (
                <>
                  <Icon className={iconClassName} />
                  {link.label}
                  <span className="sr-only"> (öffnet in neuem Tab)</span>
                </>
              )}
            </a>
          </li>
        );
      })}
    </ul>
  );
}
