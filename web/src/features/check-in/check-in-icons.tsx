import { LineIcon, type IconProps } from '../../components/icons';

/** The gate's icons: loaded with the check-in screen only. */

/** The check-in's camera button. */
export const ScanCameraIcon = ({ className = 'size-6' }: IconProps) => (
  <LineIcon className={className}>
    <path d="M4 8.5A2.5 2.5 0 0 1 6.5 6h1.6l1.2-1.8A1.5 1.5 0 0 1 10.5 3.5h3a1.5 1.5 0 0 1 1.2.7L15.9 6h1.6A2.5 2.5 0 0 1 20 8.5v8a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 16.5z" />
    <circle cx="12" cy="12.5" r="3.5" />
  </LineIcon>
);

export const QrCodeIcon = ({ className = 'size-6' }: IconProps) => (
  <LineIcon className={className} strokeWidth="1.6">
    <rect x="3.5" y="3.5" width="6" height="6" rx="1" />
    <rect x="14.5" y="3.5" width="6" height="6" rx="1" />
    <rect x="3.5" y="14.5" width="6" height="6" rx="1" />
    <path d="M14.5 14.5h2.5v2.5M20.5 14.5v0M14.5 20.5h6v-3M17 17h1" />
  </LineIcon>
);

// The check-in verdicts, drawn bold to read at arm's length.

export const CheckedInIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeWidth="2.4">
    <circle cx="12" cy="12" r="9.5" />
    <path d="m7.5 12.5 3 3 6-6.5" />
  </LineIcon>
);

export const AlreadyCheckedInIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeWidth="2.4">
    <circle cx="12" cy="12" r="9.5" />
    <path d="M12 7v5.5l3.5 2" />
  </LineIcon>
);

export const UnknownCodeIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeWidth="2.4">
    <circle cx="12" cy="12" r="9.5" />
    <path d="m8.5 8.5 7 7m0-7-7 7" />
  </LineIcon>
);

export const CheckInErrorIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeWidth="2.4">
    <path d="M10.3 3.9 2.6 17.3A2 2 0 0 0 4.3 20.3h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
    <path d="M12 9v4.5M12 17h.01" />
  </LineIcon>
);

export const FeeOpenIcon = ({ className }: IconProps) => (
  <LineIcon className={className} strokeWidth="2.4">
    <circle cx="12" cy="12" r="9.5" />
    <path d="M15.5 8.5a4.5 4.5 0 1 0 0 7M7 10.75h6M7 13.25h6" />
  </LineIcon>
);
