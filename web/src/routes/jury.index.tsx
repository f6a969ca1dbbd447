import { createFileRoute } from '@tanstack/react-router';
import { JuryHomePage } from '../features/jury/jury-home-page';
import { pageHead } from '../lib/page-head';

export const Route = createFileRoute('/jury/')({
  head: () =>
    pageHead(
      'Jury – Schlosstreffen',
      'Ihre Klassen und die Autos in Laufreihenfolge: Bewertungen an den Autos, auch ohne Netz.',
    ),
  component: JuryHomePage,
});
