import { formatJuryPoints, type JuryRankRow } from '@schlosstreffen/shared';

/** A closed class's ranking: place (or rank below the awarded places), start number, car, mean. */
export function JuryRanking({ rows, caption }: { rows: readonly JuryRankRow[]; caption: string }) {
  return (
    <div className="overflow-x-auto rounded-2xl border border-white/10">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-white/5 text-xs tracking-wide text-ash-400 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">
              Platz
            </th>
            <th scope="col" className="px-3 py-2">
              Nr.
            </th>
            <th scope="col" className="px-3 py-2">
              Auto
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              Mittel
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.vehicleId} className="border-t border-white/5">
              <td className="px-3 py-2 tabular-nums">
                {row.place ? (
                  <span className="font-bold text-gold-300">{row.place}.</span>
                ) : row.rank ? (
                  <span className="text-ash-400">{row.rank}.</span>
                ) : (
                  '–'
                )}
              </td>
              <td className="px-3 py-2 tabular-nums text-parchment">{row.startNumber}</td>
              <td className="px-3 py-2 text-parchment">
                {row.name}
                {row.tieBreak ? (
                  <span className="block text-xs text-ash-400">
                    Reihenfolge der Jury-Leitung: {row.tieBreak}
                  </span>
                ) : null}
              </td>
              <td className="px-3 py-2 text-right tabular-nums text-parchment">
                {row.mean === null ? '–' : formatJuryPoints(row.mean)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
