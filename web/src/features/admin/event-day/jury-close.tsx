import { JURY_LIMITS, JURY_MESSAGES, JuryCloseSchema } from '@schlosstreffen/shared';
import type {
  JuryAdminView,
  JuryClassAdminView,
  JuryCloseRefusal,
  JuryMissing,
} from '@schlosstreffen/shared/api';
import { useId, useState } from 'react';
import * as v from 'valibot';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { errorText, notify } from '../../../components/ui/toaster';
import { isApiError } from '../../../lib/api';
import { DialogActions, JuryDialog } from './jury-dialog';
import { useCloseJuryClass } from './jury-mutations';

type Tie = NonNullable<JuryCloseRefusal['ties']>[number];

/** The head judge's (here: the admin's) order of tied cars, with the reason. */
interface TieChoice {
  order: number[];
  reason: string;
}

/** The missing cards: 'Es fehlen noch 2 Bewertungen:' and a line per judge and car. */
export function MissingList({ missing }: { missing: readonly JuryMissing[] }) {
  if (missing.length === 0) return null;
  return (
    <div className="text-sm">
      <p className="text-parchment">{JURY_MESSAGES.missingScores(missing.length)}</p>
      <ul aria-label="Fehlende Bewertungen" className="mt-1 list-disc pl-5 text-ash-300">
        {missing.map((row) => (
          <li key={`${row.judgeId}-${row.startNumber}`}>
            {JURY_MESSAGES.missingLine(row.judgeName, row.startNumber, row.car)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The refusal a 409 of the close carries, when it is one. */
function refusalOf(error: unknown): JuryCloseRefusal | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const body = error.body as Partial<JuryCloseRefusal> | undefined;
  return {
    message: error.serverMessage,
    missing: Array.isArray(body?.missing) ? body.missing : undefined,
    ties: Array.isArray(body?.ties) ? body.ties : undefined,
  };
}

/**
 * 'Klasse abschließen': ranks the class's cars. Missing scores block it unless the admin gives a
 * reason; a tie the heaviest criterion does not decide needs an order of the tied cars with a reason.
 */
export function CloseClassDialog({
  view,
  juryClass,
  onClose,
}: {
  view: JuryAdminView;
  juryClass: JuryClassAdminView;
  onClose: () => void;
}) {
  const close = useCloseJuryClass(view.year);
  const [missing, setMissing] = useState<readonly JuryMissing[]>(juryClass.missing);
  const [ties, setTies] = useState<readonly Tie[]>([]);
  const [choices, setChoices] = useState<Record<number, TieChoice>>({});
  const [forceReason, setForceReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const reasonId = useId();

  const submit = () => {
    const body = {
      tieBreaks: ties.map((tie) => ({
        startNumbers: choices[tie.place]?.order ?? tie.startNumbers,
        reason: choices[tie.place]?.reason ?? '',
      })),
      ...(missing.length ? { forceReason } : {}),
    };
    const parsed = v.safeParse(JuryCloseSchema, body);
    if (!parsed.success) {
      setProblem(parsed.issues[0].message);
      return;
    }
    setProblem(null);
    close.mutate(
      { classId: juryClass.id, body: parsed.output },
      {
        onSuccess: () => {
          notify.success('Klasse abgeschlossen', juryClass.name);
          onClose();
        },
        onError: (error) => {
          const refused = refusalOf(error);
          if (!refused) {
            setRefusal(errorText(error) ?? 'Die Klasse konnte nicht abgeschlossen werden.');
            return;
          }
          setRefusal(refused.message);
          if (refused.missing) setMissing(refused.missing);
          if (refused.ties?.length) {
            setTies(refused.ties);
            setChoices((previous) => {
              const next = { ...previous };
              for (const tie of refused.ties ?? [])
                next[tie.place] ??= { order: [...tie.startNumbers], reason: '' };
              return next;
            });
          }
        },
      },
    );
  };

  const move = (place: number, index: number, by: -1 | 1) =>
    setChoices((previous) => {
      const choice = previous[place];
      if (!choice) return previous;
      const order = [...choice.order];
      const [taken] = order.splice(index, 1);
      order.splice(index + by, 0, taken!);
      return { ...previous, [place]: { ...choice, order } };
    });

  return (
    <JuryDialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Klasse abschließen"
      description={`${juryClass.name}: ${juryClass.cardsDone} von ${juryClass.cardsExpected} Bewertungen`}
      busy={close.isPending}
      size="lg"
    >
      <div className="flex flex-col gap-5">
        <p className="text-sm text-ash-300">
          Die Autos werden nach dem Mittel der gewichteten Summen ihrer Jurymitglieder gereiht; bei
          Gleichstand zählt zuerst das schwerste Kriterium, dann die Entscheidung der Jury-Leitung mit
          Begründung. Danach nimmt die Klasse keine Bewertungen mehr an.
        </p>
        {refusal ? (
          <p
            role="alert"
            className="rounded-xl border border-red-400/30 bg-red-950/30 px-4 py-3 text-sm text-red-200"
          >
            {refusal}
          </p>
        ) : null}
        {missing.length ? (
          <div className="flex flex-col gap-3 rounded-xl border border-gold-500/30 bg-gold-500/5 p-4">
            <MissingList missing={missing} />
            <div className="flex flex-col gap-1.5">
              <label htmlFor={reasonId} className="text-sm font-medium text-ash-300">
                Begründung für das Abschließen trotz fehlender Bewertungen<span aria-hidden="true"> *</span>
              </label>
              <textarea
                id={reasonId}
                rows={3}
                maxLength={JURY_LIMITS.reasonMax}
                value={forceReason}
                onChange={(event) => setForceReason(event.target.value)}
                className={`${inputClass} min-h-20`}
              />
              <p className="text-xs text-ash-400">{JURY_MESSAGES.forceAdminOnly}</p>
            </div>
          </div>
        ) : null}
        {ties.map((tie) => {
          const choice = choices[tie.place] ?? { order: tie.startNumbers, reason: '' };
          const nameOf = (startNumber: number) =>
            tie.cars.find((car) => car.startNumber === startNumber)?.name ?? '';
          return (
            <fieldset
              key={tie.place}
              className="flex flex-col gap-3 rounded-xl border border-white/10 bg-night-950/50 p-4"
            >
              <legend className="px-1 text-sm font-semibold text-parchment">
                Gleichstand um Platz {tie.place}
              </legend>
              <p className="text-sm text-ash-300">
                {JURY_MESSAGES.tieNeedsChoice(tie.place, tie.startNumbers)}
              </p>
              <ol aria-label={`Reihenfolge ab Platz ${tie.place}`} className="flex flex-col gap-2">
                {choice.order.map((startNumber, index) => (
                  <li
                    key={startNumber}
                    className="flex items-center gap-3 rounded-lg border border-white/10 bg-night-900 px-3 py-2"
                  >
                    <span className="w-16 text-sm text-gold-200 tabular-nums">
                      {tie.place + index}. Platz
                    </span>
                    <span className="min-w-0 flex-1 truncate text-sm text-parchment">
                      Nr. {startNumber} · {nameOf(startNumber)}
                    </span>
                    <Button
                      variant="ghost"
                      className="!px-3"
                      disabled={index === 0}
                      aria-label={`Nr. ${startNumber} nach oben`}
                      onClick={() => move(tie.place, index, -1)}
                    >
                      ↑
                    </Button>
                    <Button
                      variant="ghost"
                      className="!px-3"
                      disabled={index === choice.order.length - 1}
                      aria-label={`Nr. ${startNumber} nach unten`}
                      onClick={() => move(tie.place, index, 1)}
                    >
                      ↓
                    </Button>
                  </li>
                ))}
              </ol>
              <TieReason
                place={tie.place}
                value={choice.reason}
                onChange={(reason) =>
                  setChoices((previous) => ({
                    ...previous,
                    [tie.place]: { order: previous[tie.place]?.order ?? [...tie.startNumbers], reason },
                  }))
                }
              />
            </fieldset>
          );
        })}
        {problem ? (
          <p role="alert" className="text-sm text-red-300">
            {problem}
          </p>
        ) : null}
      </div>
      <DialogActions>
        <Button variant="ghost" disabled={close.isPending} onClick={onClose}>
          Abbrechen
        </Button>
        <Button disabled={close.isPending} onClick={submit}>
          {close.isPending ? <Spinner /> : null}
          {missing.length ? 'Trotzdem abschließen' : 'Klasse abschließen'}
        </Button>
      </DialogActions>
    </JuryDialog>
  );
}

function TieReason({
  place,
  value,
  onChange,
}: {
  place: number;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ash-300">
        Begründung der Reihenfolge ab Platz {place}
        <span aria-hidden="true"> *</span>
      </label>
      <textarea
        id={id}
        rows={2}
        maxLength={JURY_LIMITS.reasonMax}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={`${inputClass} min-h-16`}
      />
    </div>
  );
}
