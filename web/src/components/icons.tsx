import type { ReactNode, SVGProps } from 'react';

/**
 * The site's icons (header, footer, landing page, vehicle pictures): SVG in currentColor, sized and
 * placed by `className`, hidden from assistive technology (the text beside an icon, or its
 * control's label, names it). This module ships with the first page. Icons of the UI kit's controls
 * are in ui/icons.tsx, those only the admin area draws in the admin feature's admin-icons.tsx (built
 * on LineIcon from here), so neither adds to the landing page's first load.
 */
export type IconProps = { className?: string };

type LineIconProps = IconProps &
  Pick<SVGProps<SVGSVGElement>, 'viewBox' | 'strokeWidth' | 'strokeLinecap' | 'strokeLinejoin'> & {
    children: ReactNode;
  };

/**
 * A line icon: no fill, round caps and joins, 24 × 24 at stroke 1.8 unless told otherwise (pass
 * `undefined` to leave out a cap or join).
 */
export function LineIcon({ className = 'size-5', children, ...svg }: LineIconProps) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      {...svg}
      className={className}
    >
      {children}
    </svg>
  );
}

// Header, footer and landing page.

export const InstagramIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <rect x="3" y="3" width="18" height="18" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <circle cx="17.5" cy="6.5" r="0.6" fill="currentColor" />
  </LineIcon>
);

export const FacebookIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M15.5 7.5H14a2.5 2.5 0 0 0-2.5 2.5v11M8.5 12.5h6" />
  </LineIcon>
);

export const UserIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </LineIcon>
);

/** The profile: a person on a card (the account's settings). */
export const ProfileIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <rect x="3" y="4.5" width="18" height="15" rx="2.5" />
    <circle cx="9" cy="11" r="2.5" />
    <path d="M5.5 17a3.5 3.5 0 0 1 7 0M15 10h3M15 13.5h3" />
  </LineIcon>
);

export const LoginIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M15 3h3a3 3 0 0 1 3 3v12a3 3 0 0 1-3 3h-3" />
    <path d="M10 17l5-5-5-5M15 12H3" />
  </LineIcon>
);

export const LogoutIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M9 21H6a3 3 0 0 1-3-3V6a3 3 0 0 1 3-3h3" />
    <path d="M16 17l5-5-5-5M21 12H9" />
  </LineIcon>
);

export const MenuIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </LineIcon>
);

/** The header menu's close cross (line); dialogs and toasts use the filled XMarkIcon. */
export const CloseIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </LineIcon>
);

export const ShieldIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6L12 3Z" />
  </LineIcon>
);

export const CalendarIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </LineIcon>
);

export const ClockIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </LineIcon>
);

export const PinIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M12 21s-6.5-5.6-6.5-11a6.5 6.5 0 0 1 13 0c0 5.4-6.5 11-6.5 11Z" />
    <circle cx="12" cy="10" r="2.5" />
  </LineIcon>
);

export const ArrowRightIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </LineIcon>
);

export const ChevronLeftIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="m15 5-7 7 7 7" />
  </LineIcon>
);

export const ChevronRightIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="m9 5 7 7-7 7" />
  </LineIcon>
);

export const ChevronDownIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="m5 9 7 7 7-7" />
  </LineIcon>
);

export const PauseIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M9 6v12M15 6v12" />
  </LineIcon>
);

export const PlayIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M8 5.5v13l10-6.5-10-6.5Z" />
  </LineIcon>
);

export const UserPlusIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <circle cx="10" cy="8" r="4" />
    <path d="M2.5 21a7.5 7.5 0 0 1 12.5-5.6M19 14v6M16 17h6" />
  </LineIcon>
);

export const CameraIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M4 8h3l1.5-2.5h7L17 8h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1Z" />
    <circle cx="12" cy="13.5" r="3.5" />
  </LineIcon>
);

export const MailCheckIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M21 12V6.5A1.5 1.5 0 0 0 19.5 5h-15A1.5 1.5 0 0 0 3 6.5v11A1.5 1.5 0 0 0 4.5 19H12" />
    <path d="m3.5 6 8.5 6.5L20.5 6M15 18l2 2 4-4" />
  </LineIcon>
);

export const TicketIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M3 8.5V6a1 1 0 0 1 1-1h16a1 1 0 0 1 1 1v2.5a3.5 3.5 0 0 0 0 7V18a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-2.5a3.5 3.5 0 0 0 0-7Z" />
    <path d="M14 5v14" strokeDasharray="2 2.5" />
  </LineIcon>
);

/** The wordmark's emblem: a small castle tower. */
export const CastleMark = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M4 21V9h2.5V6.5H9V9h2V6.5h2V9h2V6.5h2.5V9H20v12" />
    <path d="M3 21h18M10 21v-4a2 2 0 0 1 4 0v4" />
  </LineIcon>
);

/** Placeholder for a missing vehicle picture: a stylised car. */
export const CarPlaceholderIcon = ({ className = '' }: IconProps) => (
  <LineIcon className={className} viewBox="0 0 64 64" strokeWidth="2.5">
    <path d="M8 40v-7l5-11a5 5 0 0 1 4.6-3h28.8a5 5 0 0 1 4.6 3l5 11v7" />
    <path d="M8 40h48v6a2 2 0 0 1-2 2h-4M8 40v6a2 2 0 0 0 2 2h4" />
    <circle cx="19" cy="47" r="5" />
    <circle cx="45" cy="47" r="5" />
    <path d="M24 47h16M12 31h40" />
  </LineIcon>
);
