import {
  CHECK_IN_OUTCOME_LABELS,
  CORRECTION_MESSAGES,
  CORRECTION_REASON,
  CorrectionSchema,
  type VehicleStatus,
} from '@schlosstreffen/shared';
import type { Vehicle } from '@schlosstreffen/shared/api';
import { useForm, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { SelectField } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { StatusSelect } from './status-select';
import { TextAreaField } from '../../../components/ui/textarea';
import { errorText, notify } from '../../../components/ui/toaster';
import { useCorrectionMutation } from './admin-mutations';

const CHECK_IN_OPTIONS = [
  { value: 'true', label: CHECK_IN_OUTCOME_LABELS.true },
  { value: 'false', label: CHECK_IN_OUTCOME_LABELS.false },
];
const FAILURE_FALLBACK = 'Die Korrektur konnte nicht gespeichert werden.';

interface CorrectionValues {
  status: VehicleStatus;
  /** 'true' / 'false' as the select holds it; '' when the car has no invitation. */
  checkedIn: string;
  reason: string;
}

/**
 * 'Korrigieren' (admins) for an application of an edition that is over: its status, or whether the
 * confirmed car came through the gate ('Eingecheckt' / 'Nicht erschienen'), always with a reason
 * that the status log keeps.
 */
export function CorrectionForm({ vehicle }: { vehicle: Vehicle }) {
  const mutation = useCorrectionMutation();
  const recordedCheckIn = vehicle.invitation ? String(Boolean(vehicle.invitation.checkedInAt)) : '';
  // For screen readers: toasts outside the modal dialog are hidden from them while it is open.
  const [outcome, setOutcome] = useState('');
  const form = useForm({
    defaultValues: { status: vehicle.status, checkedIn: recordedCheckIn, reason: '' } as CorrectionValues,
    onSubmit: async ({ value, formApi }) => {
      const correction = v.parse(CorrectionSchema, {
        status: value.status === vehicle.status ? undefined : value.status,
        checkedIn:
          value.checkedIn === '' || value.checkedIn === recordedCheckIn
            ? undefined
            : value.checkedIn === 'true',
        reason: value.reason,
      });
      try {
        await mutation.mutateAsync({ vehicleId: vehicle.id, correction });
        notify.success(CORRECTION_MESSAGES.done, 'Der Eintrag steht im Änderungsverlauf.');
        setOutcome(`${CORRECTION_MESSAGES.done}.`);
        formApi.reset({ ...value, reason: '' });
      } catch (error) {
        notify.error('Fehler', error, FAILURE_FALLBACK);
        setOutcome(`Fehler: ${errorText(error) ?? FAILURE_FALLBACK}`);
      }
    },
  });
  const values = useStore(form.store, (state) => state.values);
  const pending = mutation.isPending;
  const unchanged = values.status === vehicle.status && values.checkedIn === recordedCheckIn;

  return (
    <form
      aria-label="Korrigieren"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
      className="flex flex-col gap-4"
    >
      <p className="text-sm text-ash-300">
        Das Treffen ist vorbei: Ein Fehler im Eintrag wird mit Begründung korrigiert. Die Korrektur steht im
        Änderungsverlauf und im Protokoll.
      </p>
      <form.Field name="status">
        {(field) => (
          <StatusSelect
            value={field.state.value}
            onChange={field.handleChange}
            onBlur={field.handleBlur}
            disabled={pending}
            current={{ label: 'Erfasst', status: vehicle.status }}
          />
        )}
      </form.Field>
      {vehicle.invitation ? (
        <form.Field name="checkedIn">
          {(field) => (
            <SelectField
              label="Check-in"
              name="checkedIn"
              options={CHECK_IN_OPTIONS}
              value={field.state.value}
              onValueChange={(value) => {
                if (value) field.handleChange(value);
              }}
              onBlur={field.handleBlur}
              disabled={pending}
              hint={
                <>
                  Erfasst:{' '}
                  <span className="text-parchment">
                    {CHECK_IN_OUTCOME_LABELS[recordedCheckIn === 'true' ? 'true' : 'false']}
                  </span>
                </>
              }
            />
          )}
        </form.Field>
      ) : null}
      <form.Field name="reason" validators={{ onChange: CorrectionSchema.entries.reason }}>
        {(field) => (
          <TextAreaField
            field={field}
            label="Grund"
            required
            rows={3}
            maxLength={CORRECTION_REASON.max}
            hint={`Mindestens ${CORRECTION_REASON.min} Zeichen`}
            disabled={pending}
          />
        )}
      </form.Field>
      <p role="status" className="sr-only">
        {outcome}
      </p>
      <div>
        <Button type="submit" disabled={unchanged || pending} className="w-full sm:w-auto">
          {pending ? (
            <>
              <Spinner />
              Wird korrigiert...
            </>
          ) : (
            'Korrigieren'
          )}
        </Button>
      </div>
    </form>
  );
}
