import { CONSENTS, PRIVACY_MESSAGES } from '@schlosstreffen/shared';
import type { Consent } from '@schlosstreffen/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { ShieldIcon } from '../../components/icons';
import { EmptyState, LoadError, Loading } from '../../components/ui/query-states';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { formatDate } from '../../lib/date-format';
import { useWithdrawConsent } from './privacy-mutations';
import { myConsentsQueryOptions } from './privacy-queries';
import { ProfileSection } from './profile-section';

const HEADING_ID = 'profile-consents';
const titleId = (consentId: string) => `consent-${consentId}-title`;
const vehicleOf = (consent: Consent) => consent.vehicleTitle ?? 'Ohne Fahrzeug';

/** 'Einwilligungen': the consents of the user's applications, each one withdrawable on its own. */
export function ConsentsCard({ className }: { className?: string }) {
  const consents = useQuery(myConsentsQueryOptions);
  const withdraw = useWithdrawConsent();
  const [pending, setPending] = useState<Consent | null>(null);
  // The 'Widerrufen' button that opened the dialog; after a withdrawal it is gone.
  const trigger = useRef<{ element: HTMLElement; consentId: string } | null>(null);

  const focusAfterDialog = (): HTMLElement | null => {
    const current = trigger.current;
    if (!current || current.element.isConnected) return null;
    return document.getElementById(titleId(current.consentId));
  };

  const confirm = () => {
    if (!pending) return;
    const { label } = CONSENTS[pending.kind];
    withdraw.mutate(pending.id, {
      onSuccess: () =>
        notify.success(
          PRIVACY_MESSAGES.consentWithdrawn,
          `„${label}“ für ${vehicleOf(pending)} ist widerrufen.`,
        ),
      onError: (error) => notify.error('Widerruf fehlgeschlagen', error, RETRY_HINT),
      onSettled: () => setPending(null),
    });
  };

  return (
    <ProfileSection
      title="Einwilligungen"
      id={HEADING_ID}
      className={className}
      description="Die Einwilligungen aus deinen Bewerbungen, je Fahrzeug. Ein Widerruf gilt ab sofort; was bis dahin geschehen ist, bleibt davon unberührt."
    >
      {consents.isPending ? (
        <Loading label="Einwilligungen werden geladen...">
          <div aria-hidden="true" className="flex flex-col gap-3">
            {[0, 1].map((index) => (
              <div
                key={index}
                className="h-24 animate-pulse rounded-xl bg-night-900 motion-reduce:animate-none"
              />
            ))}
          </div>
        </Loading>
      ) : consents.isError ? (
        <LoadError
          title="Einwilligungen konnten nicht geladen werden"
          query={consents}
          headingLevel="h3"
          compact
        />
      ) : consents.data.length === 0 ? (
        <EmptyState
          compact
          headingLevel="h3"
          icon={<ShieldIcon className="size-8" />}
          title="Keine Einwilligungen"
          action={
            <Link to="/apply" className={buttonClass('secondary', 'mt-6')}>
              Fahrzeug anmelden
            </Link>
          }
        >
          Einwilligungen gibst du mit einer Fahrzeugbewerbung. Sobald du dich beworben hast, siehst du sie
          hier.
        </EmptyState>
      ) : (
        <ul aria-label="Einwilligungen" className="flex flex-col gap-3">
          {consents.data.map((consent) => (
            <ConsentItem
              key={consent.id}
              consent={consent}
              onWithdraw={(element) => {
                trigger.current = { element, consentId: consent.id };
                setPending(consent);
              }}
            />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open) setPending(null);
        }}
        title={pending ? `Einwilligung „${CONSENTS[pending.kind].label}“ widerrufen?` : ''}
        finalFocusEl={focusAfterDialog}
        confirmLabel="Widerrufen"
        pendingLabel="Wird widerrufen..."
        pending={withdraw.isPending}
        destructive
        onConfirm={confirm}
      >
        {pending ? (
          <>
            Für {vehicleOf(pending)}: {CONSENTS[pending.kind].withdrawal}
          </>
        ) : null}
      </ConfirmDialog>
    </ProfileSection>
  );
}

function ConsentItem({
  consent,
  onWithdraw,
}: {
  consent: Consent;
  onWithdraw: (trigger: HTMLElement) => void;
}) {
  const { label } = CONSENTS[consent.kind];
  const id = titleId(consent.id);
  return (
    <li
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-xl border border-white/10 bg-night-900/60 p-4 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="min-w-0">
        <h3 id={id} tabIndex={-1} className="font-semibold text-parchment focus:outline-none">
          {label} <span className="font-normal text-ash-300">· {vehicleOf(consent)}</span>
        </h3>
        <p className="mt-1 text-xs text-ash-400">
          Erteilt am <time dateTime={consent.grantedAt}>{formatDate(consent.grantedAt)}</time>
        </p>
        <details className="mt-2 text-sm text-ash-300">
          <summary className="cursor-pointer text-xs text-gold-300 hover:text-gold-200">
            Wortlaut (Version {consent.version})
          </summary>
          <p className="mt-1.5 leading-relaxed">„{consent.wording}“</p>
        </details>
      </div>
      {consent.withdrawnAt ? (
        <p className="shrink-0 rounded-full border border-white/15 bg-white/5 px-3 py-1 text-xs font-semibold text-ash-300">
          Widerrufen am <time dateTime={consent.withdrawnAt}>{formatDate(consent.withdrawnAt)}</time>
        </p>
      ) : (
        <Button
          variant="ghost"
          className="shrink-0 border border-red-400/40 px-4 py-1.5 text-red-300! hover:border-red-300 hover:bg-red-500/10! hover:text-red-200!"
          onClick={(event) => onWithdraw(event.currentTarget)}
        >
          Widerrufen
          <span className="sr-only">
            : {label} für {vehicleOf(consent)}
          </span>
        </Button>
      )}
    </li>
  );
}
