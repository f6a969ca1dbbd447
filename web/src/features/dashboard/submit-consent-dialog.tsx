import {
  SUBMISSION_CONSENT_KINDS,
  CONSENTS,
  missingSubmissionConsents,
  type SubmissionConsentField,
  type SubmissionConsents,
} from '@schlosstreffen/shared';
import { useState } from 'react';
import { PrivacyLink } from '../../components/privacy-link';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { textLinkClass } from '../account/form-parts';

const NONE_TICKED: Required<SubmissionConsents> = {
  consentMedia: false,
  consentQuartett: false,
  consentContact: false,
};

/**
 * 'Einreichen' of a draft on the dashboard: the three consents of the wizard's last step, in the same
 * wording, each to tick; 'Einreichen' with one missing names it (as the wizard does) and sends
 * nothing. The ticks start empty each time the dialog opens.
 */
export function SubmitConsentDialog({
  open,
  title,
  pending,
  onOpenChange,
  onSubmit,
  finalFocusEl,
}: {
  open: boolean;
  /** The vehicle's display name. */
  title: string;
  pending: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (consents: Required<SubmissionConsents>) => void;
  finalFocusEl?: () => HTMLElement | null;
}) {
  const [ticks, setTicks] = useState(NONE_TICKED);
  const [tried, setTried] = useState(false);
  // A new dialog starts without ticks or errors (reset while rendering, not in an effect).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setTicks(NONE_TICKED);
      setTried(false);
    }
  }
  const errors = new Map(
    tried ? missingSubmissionConsents(ticks).map((issue) => [issue.field, issue.message]) : [],
  );
  const tick = (field: SubmissionConsentField, checked: boolean) =>
    setTicks((current) => ({ ...current, [field]: checked }));

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Bewerbung einreichen?"
      finalFocusEl={finalFocusEl}
      confirmLabel="Einreichen"
      pendingLabel="Wird eingereicht..."
      pending={pending}
      onConfirm={() => {
        setTried(true);
        if (missingSubmissionConsents(ticks).length === 0) onSubmit(ticks);
      }}
      details={
        <div className="mt-4 flex flex-col gap-3">
          {SUBMISSION_CONSENT_KINDS.map((kind) => {
            const field = CONSENTS[kind].field;
            return (
              <Checkbox
                key={kind}
                name={field}
                checked={ticks[field]}
                onCheckedChange={(checked) => tick(field, checked)}
                error={errors.get(field)}
                required
                label={CONSENTS[kind].text}
              />
            );
          })}
          <p className="text-xs leading-relaxed text-ash-400">
            Sie können jede Einwilligung später in Ihrem Profil widerrufen. Was wir speichern und wie lange,
            steht in der <PrivacyLink className={textLinkClass} />.
          </p>
        </div>
      }
    >
      „{title}“ wird zur Prüfung eingereicht. Für die Teilnahme brauchen wir Ihre Zustimmung zu den folgenden
      Punkten.
    </ConfirmDialog>
  );
}
