import { VISITOR_TICKET_MESSAGES, VisitorTicketsSchema, type VisitorTickets } from '@schlosstreffen/shared';
import type { AdminEdition } from '@schlosstreffen/shared/api';
import { useForm, useStore } from '@tanstack/react-form';
import * as v from 'valibot';
import { Checkbox } from '../../../components/ui/checkbox';
import { fieldError, TextField } from '../../../components/ui/form-field';
import { isApiError } from '../../../lib/api';
import { serverErrorListeners, setServerError } from '../../account/form-parts';

/**
 * The 'Besuchertickets' of the edition form: its own TanStack form inside the edition's (like the
 * fee), the capacity checked with the shared schema's message, and what a save sends of it.
 */

const CAPACITY = VisitorTicketsSchema.wrapped.entries.capacity;

/** Switched on: the typed capacity as a whole number within the shared limits. */
const TicketsOnSchema = v.object({
  enabled: v.literal(true),
  exitScanning: v.boolean(),
  capacity: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d{1,7}$/, VISITOR_TICKET_MESSAGES.capacity),
    v.transform(Number),
    CAPACITY,
  ),
});

/** Switched off, nothing is checked: the typed number stays for switching it on again. */
const TicketsOffSchema = v.object({
  enabled: v.literal(false),
  capacity: v.string(),
  exitScanning: v.boolean(),
});

export const TicketsFormSchema = v.variant('enabled', [TicketsOffSchema, TicketsOnSchema]);

type TicketsFormValues = { enabled: boolean; capacity: string; exitScanning: boolean };

/** The tickets part of the edition form, started from the edition's tickets (or none). */
export function useEditionTicketsForm(tickets: VisitorTickets | null) {
  const defaultValues: TicketsFormValues = {
    enabled: tickets !== null,
    capacity: tickets ? String(tickets.capacity) : '',
    exitScanning: tickets?.exitScanning ?? false,
  };
  return useForm({ defaultValues, validators: { onChange: TicketsFormSchema } });
}

export type EditionTicketsForm = ReturnType<typeof useEditionTicketsForm>;

/**
 * What a save sends of the tickets: nothing when unchanged, `null` when switched off, else the
 * capacity and whether the exit is scanned. null when the capacity is not valid: its message is
 * shown and nothing may be sent.
 */
export async function ticketsToSave(
  form: EditionTicketsForm,
  before: VisitorTickets | null,
): Promise<{ visitorTickets?: VisitorTickets | null } | null> {
  await form.handleSubmit();
  const parsed = v.safeParse(TicketsFormSchema, form.state.values);
  if (!parsed.success) return null;
  const value = parsed.output;
  if (!value.enabled) return before === null ? {} : { visitorTickets: null };
  const unchanged =
    before?.capacity === value.capacity && (before.exitScanning ?? false) === value.exitScanning;
  return unchanged ? {} : { visitorTickets: { capacity: value.capacity, exitScanning: value.exitScanning } };
}

/** Puts the server's message about the capacity at its field; whether every message stood there. */
export function showTicketsServerIssues(form: EditionTicketsForm, error: unknown): boolean {
  if (!isApiError(error) || error.issues.length === 0) return false;
  let all = true;
  for (const issue of error.issues) {
    if (issue.field === 'visitorTickets.capacity' || issue.field === 'visitorTickets') {
      setServerError(form, 'capacity', issue.message);
    } else if (issue.field === 'visitorTickets.exitScanning') {
      setServerError(form, 'exitScanning', issue.message);
    } else all = false;
  }
  return all;
}

export const TICKETS_FORM_INVALID = 'Bitte prüfen Sie die Zahl der Besucherplätze.';

/** The editions list's line: 'Besuchertickets: 120 von 300 ausgegeben · 4 auf der Warteliste · 2 zurückgegeben'. */
export function ticketsSummary(tickets: NonNullable<AdminEdition['visitorTickets']>): string {
  return `Besuchertickets: ${tickets.issued} von ${tickets.capacity} ausgegeben · ${tickets.waiting} auf der Warteliste · ${tickets.returned} zurückgegeben`;
}

/** 'Besuchertickets': switched on, the number of places and whether the exit is scanned. */
export function EditionVisitorTicketsSection({
  form,
  year,
  hadTickets,
}: {
  form: EditionTicketsForm;
  year: number;
  /** Whether the edition gives tickets now: switching it off then ends that on saving. */
  hadTickets: boolean;
}) {
  const enabled = useStore(form.store, (state) => state.values.enabled);
  return (
    <div className="border-t border-white/10 pt-4">
      <fieldset className="flex min-w-0 flex-col gap-4">
        <legend className="mb-3 font-display text-xl text-parchment">Besuchertickets</legend>
        <form.Field name="enabled">
          {(field) => (
            <Checkbox
              checked={field.state.value}
              onCheckedChange={(checked) => field.handleChange(checked)}
              label="Besuchertickets ausgeben"
              description={
                hadTickets && !field.state.value
                  ? 'Beim Speichern werden keine Besuchertickets mehr ausgegeben.'
                  : 'Ohne Tickets bleibt die Besucher-Voranmeldung, wie sie ist. Mit Tickets bekommt jede bestätigte Adresse ein kostenloses Ticket, solange Plätze frei sind; wer danach kommt, steht auf der Warteliste.'
              }
            />
          )}
        </form.Field>
        {enabled ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <form.Field name="capacity" listeners={serverErrorListeners}>
              {(field) => (
                <TextField
                  field={field}
                  id={`edition-${year}-visitor-capacity`}
                  label="Besucherplätze"
                  required
                  inputMode="numeric"
                  autoComplete="off"
                  hint="So viele Besuchertickets werden ausgegeben."
                />
              )}
            </form.Field>
          </div>
        ) : null}
        {enabled ? (
          <form.Field name="exitScanning" listeners={serverErrorListeners}>
            {(field) => (
              <Checkbox
                checked={field.state.value}
                onCheckedChange={(checked) => field.handleChange(checked)}
                label="Ausgang scannen (Besucher dürfen das Gelände verlassen und wiederkommen)"
                description="Am Einlass wählt das Team dann „Eingang“ oder „Ausgang“; die Einlass-Übersicht zeigt, wie viele Besucher gerade auf dem Gelände sind."
                error={fieldError(field)}
              />
            )}
          </form.Field>
        ) : null}
      </fieldset>
    </div>
  );
}
