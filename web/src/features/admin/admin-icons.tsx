import type { ReactNode } from 'react';
import { LineIcon, type IconProps } from '../../components/icons';

/**
 * The admin area's icons (the app's other icons are in components/icons.tsx): loaded with the admin
 * screens only, never with the landing page.
 */

/** A filled 20 × 20 icon. */
function SolidIcon({ className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={className}>
      {children}
    </svg>
  );
}

export const DownloadIcon = ({ className }: IconProps) => (
  <SolidIcon className={className}>
    <path d="M10 3a1 1 0 0 1 1 1v7.6l2.3-2.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L9 11.6V4a1 1 0 0 1 1-1ZM4 15a1 1 0 0 1 1 1h10a1 1 0 1 1 2 0 2 2 0 0 1-2 2H5a2 2 0 0 1-2-2 1 1 0 0 1 1-1Z" />
  </SolidIcon>
);

export const LockIcon = ({ className }: IconProps) => (
  <SolidIcon className={className}>
    <path
      fillRule="evenodd"
      d="M10 2a4 4 0 0 0-4 4v2H5a2 2 0 0 0-2 2v6a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-6a2 2 0 0 0-2-2h-1V6a4 4 0 0 0-4-4Zm2 6V6a2 2 0 1 0-4 0v2h4Z"
      clipRule="evenodd"
    />
  </SolidIcon>
);

export const ExternalLinkIcon = ({ className }: IconProps) => (
  <LineIcon className={className} viewBox="0 0 20 20">
    <path d="M11 4h5v5M16 4l-7 7M14 12v3a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h3" />
  </LineIcon>
);

export const SearchIcon = ({ className }: IconProps) => (
  <LineIcon className={className} viewBox="0 0 20 20" strokeWidth="2" strokeLinejoin={undefined}>
    <circle cx="8.5" cy="8.5" r="5.5" />
    <path d="m13 13 4 4" />
  </LineIcon>
);

/** A magnifier with a minus: a search or filter without results. */
export const NoMatchIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeLinejoin={undefined}>
    <circle cx="10.5" cy="10.5" r="6.5" />
    <path d="m15.5 15.5 5 5M8 10.5h5" />
  </LineIcon>
);

/** Empty media library: stacked pictures. */
export const ImagesIcon = ({ className }: IconProps) => (
  <LineIcon className={className} viewBox="0 0 48 48" strokeWidth="2.5">
    <rect x="6" y="12" width="30" height="26" rx="3" />
    <path d="M12 6h27a3 3 0 0 1 3 3v23" />
    <circle cx="15" cy="21" r="3" />
    <path d="m6 33 9-8 7 6 5-4 9 8" />
  </LineIcon>
);

/** No quartett exports yet: two cards. */
export const CardsIcon = ({ className }: IconProps) => (
  <LineIcon className={className} viewBox="0 0 48 48" strokeWidth="2" strokeLinecap={undefined}>
    <rect x="8" y="10" width="20" height="30" rx="2.5" transform="rotate(-8 18 25)" />
    <rect x="20" y="8" width="20" height="30" rx="2.5" />
    <path d="M24 14h12M24 30h12M24 34h8" strokeLinecap="round" />
  </LineIcon>
);
