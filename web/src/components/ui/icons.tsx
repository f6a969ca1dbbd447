import type { ReactNode } from 'react';

/**
 * The icons of the UI kit's controls and of a form's outcome. Apart from components/icons.tsx (the
 * site's icons) on purpose: the toaster loads this module with the first page, and an import of
 * the site icons from here would split them into a chunk of their own, one request more.
 */
type IconProps = { className?: string };

// Controls: dismiss buttons, checkboxes and select items.

/** The filled cross of toasts, dialogs, page cards and a select's clear button. */
export const XMarkIcon = ({ className }: IconProps) => (
  <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={className}>
    <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
  </svg>
);

/** The tick of a checked checkbox or select item. */
export const CheckIcon = ({ className = 'size-3.5' }: IconProps) => (
  <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" className={className}>
    <path
      d="m4.5 10.5 3.5 3.5 7.5-8"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

// Outcome of a form (inside an aria-hidden badge, so without aria-hidden of their own).

const outcomeIcon = (className: string | undefined, path: ReactNode) => (
  <svg viewBox="0 0 24 24" className={className} fill="none" stroke="currentColor" strokeWidth="1.8">
    {path}
  </svg>
);

/** Done: a large tick. */
export const SuccessIcon = ({ className }: IconProps) =>
  outcomeIcon(className, <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />);

/** Failed: a warning triangle. */
export const WarningIcon = ({ className }: IconProps) =>
  outcomeIcon(
    className,
    <path
      d="M12 7.5v5.5m0 3.5v.01M10.3 3.9 2.6 17.3A2 2 0 0 0 4.3 20.3h15.4a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
      strokeLinecap="round"
      strokeLinejoin="round"
    />,
  );
