import { STATUS_BADGE_CLASSES, STATUS_LABELS, type VehicleStatus } from '@schlosstreffen/shared';

/** The application status as a coloured pill with its German label (STATUS_LABELS). */
export function StatusBadge({ status, className = '' }: { status: VehicleStatus; className?: string }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_BADGE_CLASSES[status]} ${className}`}
    >
      {STATUS_LABELS[status]}
    </span>
  );
}
