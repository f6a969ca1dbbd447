import type { ReactNode } from 'react';

/** One of the profile page's cards: a section named by its heading, with an optional lead text. */
export function ProfileSection({
  title,
  id,
  description,
  className = '',
  children,
}: {
  title: string;
  id: string;
  description?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-xl border border-white/10 bg-night-950/60 p-4 sm:p-6 ${className}`}
    >
      <h2 id={id} className="font-display text-xl text-parchment">
        {title}
      </h2>
      {description ? <div className="mt-2 text-sm leading-relaxed text-ash-300">{description}</div> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}
