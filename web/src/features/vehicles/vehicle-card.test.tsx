import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VehicleCard } from './vehicle-card';
import { makeInvitation, makeMedia, makeVehicle } from './vehicle-fixtures';

afterEach(cleanup);

function tileValue(label: string): string | null | undefined {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('VehicleCard', () => {
  it('shows the media marked isHero, using its thumbnail and framing', () => {
    const vehicle = makeVehicle({
      media: [
        makeMedia({ id: 'm1', thumbnailUrl: '/objects/thumbs/m1/480.webp' }),
        makeMedia({
          id: 'm2',
          url: '/objects/uploads/m2.jpg',
          thumbnailUrl: '/objects/thumbs/m2/480.webp',
          isHero: true,
          cropX: '30.00',
          cropY: '70.00',
          scale: '150.00',
        }),
      ],
    });
    render(<VehicleCard vehicle={vehicle} />);

    const image = screen.getByRole('img', { name: 'BMW M3' });
    expect(image.getAttribute('src')).toBe('/objects/thumbs/m2/480.webp');
    expect(image.style.objectPosition).toBe('30% 70%');
    expect(image.style.transform).toBe('scale(1.5)');
  });

  it('falls back to the first image and to its original when there is no thumbnail', () => {
    const vehicle = makeVehicle({
      media: [
        makeMedia({ id: 'm1', url: '/objects/uploads/first.jpg', thumbnailUrl: null }),
        makeMedia({ id: 'm2', url: '/objects/uploads/second.jpg' }),
      ],
    });
    render(<VehicleCard vehicle={vehicle} />);

    expect(screen.getByRole('img').getAttribute('src')).toBe('/objects/uploads/first.jpg');
  });

  it('shows the placeholder icon without images', () => {
    render(<VehicleCard vehicle={makeVehicle({ media: [] })} />);

    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByTestId('vehicle-card-placeholder')).toBeTruthy();
  });

  it('tries the original after a failed thumbnail, then shows the placeholder', () => {
    const vehicle = makeVehicle({
      media: [makeMedia({ url: '/objects/uploads/m1.jpg', thumbnailUrl: '/objects/thumbs/m1/480.webp' })],
    });
    render(<VehicleCard vehicle={vehicle} />);

    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByRole('img').getAttribute('src')).toBe('/objects/uploads/m1.jpg');

    fireEvent.error(screen.getByRole('img'));
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByTestId('vehicle-card-placeholder')).toBeTruthy();
  });

  it('shows the placeholder when the only image fails to load', () => {
    render(<VehicleCard vehicle={makeVehicle({ media: [makeMedia({ thumbnailUrl: null })] })} />);

    fireEvent.error(screen.getByRole('img'));
    expect(screen.getByTestId('vehicle-card-placeholder')).toBeTruthy();
  });

  it('shows the six tiles in de-DE notation and N/A for missing torque and cylinders', () => {
    render(
      <VehicleCard
        vehicle={makeVehicle({
          ps: 1050,
          torqueNm: null,
          zeroToHundredS: 5.4,
          topSpeedKmh: 230,
          cylinders: null,
          weightKg: 1050,
        })}
      />,
    );

    expect(tileValue('Leistung')).toBe('1.050 PS');
    expect(tileValue('Drehmoment')).toBe('N/A');
    expect(tileValue('0-100 km/h')).toBe('5,4 s');
    expect(tileValue('V-Max')).toBe('230 km/h');
    expect(tileValue('Zylinder')).toBe('N/A');
    expect(tileValue('Gewicht')).toBe('1.050 kg');
  });

  it('shows torque and cylinders when present', () => {
    render(<VehicleCard vehicle={makeVehicle({ torqueNm: 240, cylinders: 6 })} />);

    expect(tileValue('Drehmoment')).toBe('240 Nm');
    expect(tileValue('Zylinder')).toBe('6');
  });

  it('titles a named vehicle by its name with brand and model in the subline', () => {
    render(<VehicleCard vehicle={makeVehicle({ name: 'Rote Zora', color: 'Tornadorot' })} />);

    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Rote Zora');
    expect(screen.getByText('BMW M3 · 1988 · Tornadorot')).toBeTruthy();
  });

  it('titles an unnamed vehicle by brand and model, the subline then has year and colour only', () => {
    render(<VehicleCard vehicle={makeVehicle({ name: null, color: 'Henna-Rot' })} />);

    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('BMW M3');
    expect(screen.getByText('1988 · Henna-Rot')).toBeTruthy();
  });

  it('leaves out a missing colour', () => {
    render(<VehicleCard vehicle={makeVehicle({ name: '  ', color: null })} />);

    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('BMW M3');
    expect(screen.getByText('1988')).toBeTruthy();
  });

  it('shows the status badge with its German label and colour', () => {
    render(<VehicleCard vehicle={makeVehicle({ status: 'in_review' })} />);

    const badge = screen.getByText('In Prüfung');
    expect(badge.className).toContain('bg-yellow-100');
  });

  it.each([
    [{ firstName: 'Lena', lastName: 'Weber', email: 'lena@example.de' }, 'Lena Weber'],
    [{ firstName: null, lastName: null, email: 'lena@example.de' }, 'lena@example.de'],
    [null, 'Unbekannt'],
  ])('shows the owner line %# with fallbacks', (user, expected) => {
    const owner = user ? { id: 'u1', phone: null, role: 'user' as const, ...user } : null;
    render(<VehicleCard vehicle={makeVehicle({ user: owner })} showOwner />);

    expect(screen.getByText('Besitzer:').parentElement?.textContent).toBe(`Besitzer: ${expected}`);
  });

  it('has no owner line unless asked', () => {
    render(
      <VehicleCard
        vehicle={makeVehicle({
          user: {
            id: 'u1',
            firstName: 'Lena',
            lastName: 'Weber',
            email: 'l@example.de',
            phone: null,
            role: 'user',
          },
        })}
      />,
    );

    expect(screen.queryByText('Besitzer:')).toBeNull();
    expect(screen.queryByText(/Lena Weber/)).toBeNull();
  });

  it('shows tuning categories, a two-line short description and the invitation', () => {
    render(
      <VehicleCard
        vehicle={makeVehicle({
          status: 'invited',
          tuningCategories: ['Motor', 'Fahrwerk'],
          descriptionShort: 'Originaler Zustand mit Sportfahrwerk.',
          invitation: makeInvitation({ startNumber: 17, parkingZone: 'B' }),
        })}
      />,
    );

    const categories = screen.getByRole('list', { name: 'Tuning-Kategorien' });
    expect(
      within(categories)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Motor', 'Fahrwerk']);
    expect(screen.getByText('Originaler Zustand mit Sportfahrwerk.').className).toContain('line-clamp-2');
    expect(screen.getByText('Startnummer 17')).toBeTruthy();
    expect(screen.getByText('Parkzone B')).toBeTruthy();
  });

  it('opens through its title button and keeps the actions clickable', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const onAction = vi.fn();
    const vehicle = makeVehicle({ name: 'Rote Zora' });
    render(
      <VehicleCard
        vehicle={vehicle}
        onOpen={onOpen}
        headingLevel="h3"
        actions={
          <button type="button" onClick={onAction}>
            Bearbeiten
          </button>
        }
      />,
    );

    await user.click(screen.getByRole('button', { name: 'Rote Zora' }));
    expect(onOpen).toHaveBeenCalledWith(vehicle);
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Rote Zora');

    await user.click(screen.getByRole('button', { name: 'Bearbeiten' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
});
