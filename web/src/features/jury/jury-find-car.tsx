import { parseCarPagePath } from '@schlosstreffen/shared';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { inputClass } from '../../components/ui/form-field';
import { ScanCameraIcon } from '../check-in/check-in-icons';
import { JuryCamera } from './jury-camera';
import type { JuryModel } from './jury-model';

/**
 * The start number a scanned or typed code names: a number, or a windshield sign's QR code (the
 * car page's address, `/fahrzeuge/{Jahr}/{Startnummer}`) of this edition.
 */
export function startNumberFromCode(raw: string, year: number): { startNumber: number } | { error: string } {
  const code = raw.trim();
  if (/^\d{1,5}$/.test(code)) return { startNumber: Number(code) };
  let path: { year: number; startNumber: number } | null;
  try {
    path = parseCarPagePath(new URL(code, window.location.origin).pathname);
  } catch {
    path = null;
  }
  if (!path) return { error: 'Dieser Code gehört zu keinem Windschutzscheiben-Schild.' };
  if (path.year !== year) return { error: `Dieses Schild gehört zum Schlosstreffen ${path.year}.` };
  return { startNumber: path.startNumber };
}

/** 'Code scannen' or a typed start number: both open the car's scorecard. */
export function JuryFindCar({ model }: { model: JuryModel }) {
  const navigate = useNavigate();
  const [scanning, setScanning] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const lastCode = useRef<string | null>(null);
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const year = model.view.year;
  const carOf = model.carOf;

  const open = useCallback(
    (raw: string): boolean => {
      const found = startNumberFromCode(raw, year);
      if ('error' in found) {
        setError(found.error);
        return false;
      }
      if (!carOf(found.startNumber)) {
        setError(`Startnummer ${found.startNumber} tritt in keiner Ihrer Klassen an.`);
        return false;
      }
      setError(null);
      setScanning(false);
      void navigate({ to: '/jury/$startNumber', params: { startNumber: String(found.startNumber) } });
      return true;
    },
    [carOf, navigate, year],
  );

  const onCode = useCallback(
    (code: string) => {
      // The camera keeps seeing the same sign: say it once.
      if (code === lastCode.current) return;
      lastCode.current = code;
      open(code);
    },
    [open],
  );

  return (
    <section aria-labelledby="jury-find-heading" className="flex flex-col gap-3">
      <h2 id="jury-find-heading" className="sr-only">
        Auto aufrufen
      </h2>
      <Button
        variant={scanning ? 'secondary' : 'primary'}
        className="min-h-14 w-full text-base"
        aria-expanded={scanning}
        onClick={() => {
          lastCode.current = null;
          setError(null);
          setScanning((on) => !on);
        }}
      >
        <ScanCameraIcon className="size-5" />
        {scanning ? 'Kamera schließen' : 'Code scannen'}
      </Button>
      {scanning ? <JuryCamera onCode={onCode} /> : null}
      <form
        noValidate
        aria-label="Startnummer eingeben"
        className="flex items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!typed.trim()) return setError('Bitte eine Startnummer eingeben.');
          if (open(typed)) setTyped('');
        }}
      >
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-parchment">
            Startnummer
          </label>
          <input
            id={inputId}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            inputMode="numeric"
            enterKeyHint="go"
            autoComplete="off"
            maxLength={200}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className={`${inputClass} min-h-12 text-lg`}
          />
        </div>
        <Button type="submit" variant="secondary" className="min-h-12">
          Öffnen
        </Button>
      </form>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      ) : null}
    </section>
  );
}
