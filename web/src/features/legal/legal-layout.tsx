import type { SiteConfig } from '@schlosstreffen/shared';
import type { ReactNode } from 'react';

/** The frame and text blocks of the legal pages (Datenschutzerklärung, Impressum). */

export const legalLinkClass =
  'font-medium break-words text-gold-300 underline decoration-gold-500/40 underline-offset-4 transition-colors hover:text-gold-200 hover:decoration-gold-300';

/** A long text page: eyebrow, h1, lead, then its sections. */
export function LegalPage({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto w-full max-w-3xl flex-1 px-4 py-10 sm:px-6 sm:py-16">
      <p className="text-xs tracking-[0.3em] text-gold-400 uppercase">Rechtliches</p>
      <h1 className="mt-2 font-display text-4xl text-parchment sm:text-5xl">{title}</h1>
      {lead ? <p className="mt-4 text-ash-300">{lead}</p> : null}
      <div className="mt-10 flex flex-col gap-10">{children}</div>
    </article>
  );
}

/** A numbered part of the page, named by its h2. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 border-t border-white/10 pt-8 text-sm leading-relaxed text-ash-300 sm:text-base"
    >
      <h2 id={id} className="scroll-mt-28 font-display text-2xl text-parchment">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function LegalSubheading({ children }: { children: ReactNode }) {
  return <h3 className="mt-2 font-semibold text-parchment">{children}</h3>;
}

export function LegalList({ children }: { children: ReactNode }) {
  return <ul className="flex list-disc flex-col gap-2 pl-5 marker:text-gold-500">{children}</ul>;
}

/** A line such as 'Rechtsgrundlage: …', set apart from the text above it. */
export function LegalBasis({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border-l-2 border-gold-500/50 bg-night-900/60 px-3 py-2 text-sm">
      <span className="font-semibold text-parchment">Rechtsgrundlage: </span>
      {children}
    </p>
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address as a mailto link; other text (e.g. a name with a postal address) line by line. */
export function ContactText({ value }: { value: string }) {
  const text = value.trim();
  if (EMAIL.test(text)) {
    return (
      <a href={`mailto:${text}`} className={legalLinkClass}>
        {text}
      </a>
    );
  }
  return <span className="whitespace-pre-line">{text}</span>;
}

/** Who runs the site: name, postal address, email and, when configured, phone. */
export function OperatorAddress({ operator }: { operator: SiteConfig['operator'] }) {
  const phone = operator.phone?.trim();
  return (
    <address className="rounded-xl border border-white/10 bg-night-900/60 px-5 py-4 not-italic">
      <span className="block font-semibold text-parchment">{operator.name}</span>
      {operator.address
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .map((line, index) => (
          <span key={index} className="block">
            {line}
          </span>
        ))}
      <span className="mt-3 block">
        E-Mail:{' '}
        <a href={`mailto:${operator.email}`} className={legalLinkClass}>
          {operator.email}
        </a>
      </span>
      {phone ? (
        <span className="block">
          Telefon:{' '}
          <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={legalLinkClass}>
            {phone}
          </a>
        </span>
      ) : null}
    </address>
  );
}

/** A retention period as a phrase: '30 Tage nach dem Ende der Veranstaltung', '1 Tag nach dem Hochladen'. */
export function retentionText(days: number, description: string): string {
  return `${days} ${days === 1 ? description.replace(/^Tage\b/, 'Tag') : description}`;
}
