import type { SignExport } from '@schlosstreffen/shared/api';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { notify, RETRY_HINT } from '../../components/ui/toaster';
import { api, apiGet } from '../../lib/api';

/** How often a sign being rendered is asked for, and for how long at most. */
const POLL_MS = 1000;
const POLL_LIMIT_MS = 90_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Renders a car's windshield sign (A4 landscape, its start number, zone and the QR code to its page)
 * in the background and downloads it once ready. For its owner and staff; the api checks who asks.
 */
export async function fetchWindshieldSign(
  vehicleId: string,
  stillWanted: () => boolean,
): Promise<SignExport> {
  const path = `/api/vehicles/${encodeURIComponent(vehicleId)}/sign`;
  let sign = await api.post<SignExport>(path);
  const until = Date.now() + POLL_LIMIT_MS;
  while ((sign.status === 'queued' || sign.status === 'rendering') && stillWanted()) {
    if (Date.now() > until) throw new Error('timeout');
    await wait(POLL_MS);
    sign = await apiGet<SignExport>(path);
  }
  return sign;
}

/** 'Windschild herunterladen': renders the car's sign, then saves the PDF. */
export function WindshieldSignButton({
  vehicleId,
  title,
  variant = 'secondary',
  className = '',
}: {
  vehicleId: string;
  /** The car's name, for the accessible label. */
  title: string;
  variant?: 'primary' | 'secondary' | 'ghost';
  className?: string;
}) {
  const [pending, setPending] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const download = async () => {
    setPending(true);
    try {
      const sign = await fetchWindshieldSign(vehicleId, () => mounted.current);
      if (!mounted.current) return;
      if (sign.status === 'ready' && sign.downloadUrl) {
        // An attachment: the browser saves it and the page stays.
        const link = document.createElement('a');
        link.href = sign.downloadUrl;
        link.download = sign.downloadName;
        link.click();
      } else {
        notify.error('Windschild konnte nicht erstellt werden', undefined, RETRY_HINT);
      }
    } catch (error) {
      notify.error('Windschild konnte nicht erstellt werden', error, RETRY_HINT);
    } finally {
      if (mounted.current) setPending(false);
    }
  };

  return (
    <Button
      variant={variant}
      className={className}
      disabled={pending}
      aria-label={pending ? undefined : `Windschild herunterladen (${title})`}
      onClick={() => void download()}
    >
      {pending ? (
        <>
          <Spinner />
          Windschild wird erstellt...
        </>
      ) : (
        'Windschild herunterladen'
      )}
    </Button>
  );
}
