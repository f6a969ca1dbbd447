import { Progress } from '@ark-ui/react/progress';
import type { ReactNode } from 'react';

/**
 * A labelled progress bar (Ark progress), e.g. the wizard's 'Schritt 2 von 4'. `valueText` is what
 * is shown on the right and read out as the progress bar's value.
 */
export function ProgressBar({
  value,
  max,
  min = 0,
  label,
  valueText,
  className = '',
}: {
  value: number;
  max: number;
  min?: number;
  label: ReactNode;
  valueText: string;
  className?: string;
}) {
  return (
    <Progress.Root
      value={value}
      min={min}
      max={max}
      locale="de-DE"
      translations={{ value: () => valueText }}
      className={`flex flex-col gap-2 ${className}`}
    >
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <Progress.Label className="min-w-0 truncate font-medium text-parchment">{label}</Progress.Label>
        <Progress.ValueText className="shrink-0 text-ash-400 tabular-nums">{valueText}</Progress.ValueText>
      </div>
      <Progress.Track className="h-1.5 overflow-hidden rounded-full bg-white/10">
        <Progress.Range className="h-full rounded-full bg-linear-to-r from-gold-600 to-gold-400 transition-[width] duration-300 ease-out" />
      </Progress.Track>
    </Progress.Root>
  );
}
