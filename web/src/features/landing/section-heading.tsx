import type { ReactNode } from 'react';

/** Eyebrow, serif heading and an optional lead text, shared by the landing sections. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
  align = 'left',
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
  align?: 'left' | 'center';
}) {
  const centered = align === 'center';
  return (
    <div className={`flex flex-col gap-4 ${centered ? 'items-center text-center' : ''}`}>
      <p className="flex items-center gap-3 text-xs font-semibold tracking-[0.3em] text-gold-400 uppercase">
        <span aria-hidden="true" className="h-px w-8 bg-gold-500/60" />
        {eyebrow}
        {centered ? <span aria-hidden="true" className="h-px w-8 bg-gold-500/60" /> : null}
      </p>
      <h2
        id={id}
        className="font-display text-3xl leading-tight text-balance text-parchment sm:text-4xl lg:text-5xl"
      >
        {title}
      </h2>
      {children ? (
        <div
          className={`max-w-2xl text-base leading-relaxed text-ash-300 sm:text-lg ${centered ? 'mx-auto' : ''}`}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
