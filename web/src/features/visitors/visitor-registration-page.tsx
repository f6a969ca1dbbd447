import { useForm, useStore } from '@tanstack/react-form';
import { useMutation } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import {
  MESSAGES,
  VISITOR_NEXT_EDITION_CONSENT,
  VisitorRegistrationSchema,
  type VisitorRegistrationInput,
} from '@schlosstreffen/shared';
import { useEffect, useRef } from 'react';
import * as v from 'valibot';
import { PrivacyLink } from '../../components/privacy-link';
import { Checkbox } from '../../components/ui/checkbox';
import { SuccessIcon } from '../../components/ui/icons';
import { Button } from '../../components/ui/button';
import { KeptCheckbox, TextField } from '../../components/ui/form-field';
import { PageCard } from '../../components/ui/page-card';
import { notify } from '../../components/ui/toaster';
import { api } from '../../lib/api';
import { getSiteConfig } from '../../lib/site-config';
import { AccountForm, EmailField, NameFields, SubmitButton, textLinkClass } from '../account/form-parts';
import { siteEventFacts } from '../../lib/event-format';
import { announcePageLive } from '../../lib/page-live';

const route = getRouteApi('/visitor-registration');

interface VisitorRegistered {
  message: string;
  /** How the sign-up continues: confirming through the link in the mail. */
  description?: string;
}

const EMPTY: v.InferInput<typeof VisitorRegistrationSchema> = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  nextEdition: false,
};

export function VisitorRegistrationPage() {
  const facts = siteEventFacts(getSiteConfig());
  useEffect(announcePageLive, []);
  const signUp = useMutation({
    mutationFn: (body: VisitorRegistrationInput) =>
      api.post<VisitorRegistered | undefined>('/api/visitor-registrations', body),
  });

  const form = useForm({
    defaultValues: EMPTY,
    validators: { onChange: VisitorRegistrationSchema },
    onSubmit: async ({ value }) => {
      try {
        await signUp.mutateAsync(v.parse(VisitorRegistrationSchema, value));
        notify.success('Erfolgreich vorgemerkt!', 'Wir halten dich über das Event auf dem Laufenden.');
      } catch (error) {
        notify.error('Fehler', error, 'Registrierung fehlgeschlagen. Bitte versuche es erneut.');
      }
    },
  });
  const pending = useStore(form.store, (state) => state.isSubmitting);

  const again = () => {
    form.reset(EMPTY);
    signUp.reset();
    // Back on the form: start at its first field.
    requestAnimationFrame(() => document.getElementById('field-firstName')?.focus());
  };

  if (signUp.isSuccess) return <ThankYou description={signUp.data?.description} onAgain={again} />;

  return (
    <PageCard
      title={
        // The long word may break with a hyphen on phones; the accessible name stays one word.
        <>
          <span aria-hidden="true">Besucher&shy;voranmeldung</span>
          <span className="sr-only">Besuchervoranmeldung</span>
        </>
      }
      description={`Merke dich unverbindlich für das ${facts.name} am ${facts.shortDate} vor – wir halten dich auf dem Laufenden.`}
      closeTo="/"
      width="md"
    >
      <LinkNotice />
      <AccountForm label="Besuchervoranmeldung" onSubmit={() => form.handleSubmit()}>
        <NameFields form={form} />
        <EmailField form={form} label="E-Mail" />
        <form.Field name="phone">
          {(field) => (
            <TextField
              field={field}
              label="Telefon (optional)"
              type="tel"
              autoComplete="tel"
              hint="Nur für Rückfragen des Veranstalters zu deiner Voranmeldung."
            />
          )}
        </form.Field>
        <form.Field name="nextEdition">
          {(field) => (
            <KeptCheckbox field={field}>
              <Checkbox
                name="nextEdition"
                checked={field.state.value === true}
                onCheckedChange={(checked) => field.handleChange(checked)}
                onBlur={field.handleBlur}
                label={VISITOR_NEXT_EDITION_CONSENT.text}
              />
            </KeptCheckbox>
          )}
        </form.Field>
        <p className="text-xs text-ash-400">
          * Pflichtfelder. Deine Daten werden nur für Event-Updates verwendet.
        </p>
        <p className="text-xs text-ash-400">
          Abmelden kannst du dich jederzeit über den Link in unseren E-Mails. Mehr in der{' '}
          <PrivacyLink className={textLinkClass} />.
        </p>
        <SubmitButton pending={pending} label="Jetzt vormerken" pendingLabel="Wird vorgemerkt..." />
      </AccountForm>
    </PageCard>
  );
}

/** The outcome of a link from the confirmation mail (the API redirects here with a marker). */
function LinkNotice() {
  const search = route.useSearch();
  const notice = search.bestaetigt
    ? {
        tone: 'ok',
        title: 'Vormerkung bestätigt',
        text: 'Danke! Wir halten dich über das Event auf dem Laufenden.',
      }
    : search.abgemeldet
      ? { tone: 'ok', title: 'Abgemeldet', text: MESSAGES.visitorUnsubscribed }
      : search.link
        ? {
            tone: 'error',
            title: 'Link ungültig',
            text: `${MESSAGES.visitorLinkInvalid} Merke dich einfach hier erneut vor.`,
          }
        : null;
  if (!notice) return null;
  return (
    <div
      role="status"
      className={`mb-6 rounded-xl border px-4 py-3 text-sm ${
        notice.tone === 'ok'
          ? 'border-gold-500/40 bg-gold-500/10 text-parchment'
          : 'border-red-400/40 bg-red-950/40 text-red-100'
      }`}
    >
      <p className="font-semibold">{notice.title}</p>
      <p className="mt-0.5 text-ash-300">{notice.text}</p>
    </div>
  );
}

function ThankYou({ description, onAgain }: { description?: string; onAgain: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form is gone: move focus to the thank-you so screen readers announce it.
  useEffect(() => heading.current?.focus(), []);

  return (
    <section className="mx-auto flex w-full max-w-xl flex-1 flex-col justify-center px-4 py-10 sm:px-6 sm:py-16">
      <div className="flex flex-col items-center gap-5 rounded-2xl border border-gold-500/30 bg-night-900/80 p-6 text-center shadow-2xl shadow-black/40 backdrop-blur sm:p-8">
        <span
          aria-hidden="true"
          className="flex size-16 items-center justify-center rounded-full border border-gold-500/40 bg-gold-500/10 text-gold-300"
        >
          <SuccessIcon className="size-8" />
        </span>
        <h1 ref={heading} tabIndex={-1} className="font-display text-3xl text-parchment focus:outline-none">
          Vielen Dank!
        </h1>
        <p className="text-ash-300">
          Du bist jetzt vorgemerkt und erfährst zuerst, was es Neues zum Schlosstreffen gibt.
        </p>
        <p className="text-sm text-ash-300">{description ?? MESSAGES.visitorConfirmPending}</p>
        <Button variant="secondary" className="mt-2 w-full py-3" onClick={onAgain}>
          Weitere Person vormerken
        </Button>
        <Link to="/" className={`text-sm ${textLinkClass}`}>
          Zur Startseite
        </Link>
      </div>
    </section>
  );
}
