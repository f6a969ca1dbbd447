import { CAROUSEL_INTERVAL_MS } from '@schlosstreffen/shared';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicMedia, PublicVehicle } from '@schlosstreffen/shared/api';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../../lib/query-client';
import { vehicleDisplayName as vehicleTitle } from '@schlosstreffen/shared';
import { ConfirmedVehiclesSection, VehicleCarousel } from './vehicle-carousel';

const SLIDE_WIDTH = 600;

/**
 * jsdom has no layout, so the carousel could not find its scroll snap points. Each slide gets a
 * width and a position in a row, and scrolling moves the row.
 */
function installSlideLayout() {
  const isPart = (element: Element, part: string) =>
    element.getAttribute('data-scope') === 'carousel' && element.getAttribute('data-part') === part;

  // Every slide counts as in view (without this the carousel hides the others from assistive technology).
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      private targets: Element[] = [];
      constructor(private readonly callback: IntersectionObserverCallback) {}
      observe(target: Element) {
        this.targets.push(target);
        if (this.targets.length > 1) return;
        setTimeout(() => {
          const entries = this.targets.map((item) => ({ target: item, isIntersecting: true }));
          this.callback(
            entries as unknown as IntersectionObserverEntry[],
            this as unknown as IntersectionObserver,
          );
        });
      }
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return isPart(this, 'item-group') || isPart(this, 'item') ? SLIDE_WIDTH : 0;
  });
  vi.spyOn(Element.prototype, 'scrollWidth', 'get').mockImplementation(function (this: Element) {
    return isPart(this, 'item-group') ? SLIDE_WIDTH * this.children.length : 0;
  });
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    let left = 0;
    if (isPart(this, 'item') && this.parentElement) {
      left = Number(this.getAttribute('data-index')) * SLIDE_WIDTH - this.parentElement.scrollLeft;
    }
    const width = isPart(this, 'item') || isPart(this, 'item-group') ? SLIDE_WIDTH : 0;
    return DOMRect.fromRect({ x: left, y: 0, width, height: 300 });
  });
  Element.prototype.scrollTo = function (this: Element, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && typeof options.left === 'number') this.scrollLeft = options.left;
  } as Element['scrollTo'];
}

function hero(overrides: Partial<PublicMedia> = {}): PublicMedia {
  return {
    type: 'image',
    url: '/objects/uploads/a/original.jpg',
    thumbnailUrl: '/objects/thumbs/a/480.webp',
    isHero: true,
    cropX: '30.00',
    cropY: '70.00',
    scale: '150.00',
    ...overrides,
  };
}

function vehicle(id: string, overrides: Partial<PublicVehicle> = {}): PublicVehicle {
  const media = overrides.hero === undefined ? hero() : overrides.hero;
  return {
    id,
    name: `Fahrzeug ${id}`,
    brand: 'BMW',
    model: 'M3 (E30)',
    year: 1988,
    color: 'Henna-Rot',
    ps: 238,
    torqueNm: 240,
    topSpeedKmh: 241,
    zeroToHundredS: 6.7,
    cylinders: 4,
    weightKg: 1200,
    driveType: 'RWD',
    tuningCategories: ['Fahrwerk'],
    descriptionShort: null,
    media: media ? [media] : [],
    hero: media,
    ...overrides,
  };
}

const currentDot = () =>
  screen
    .getAllByRole('button', { name: /^Fahrzeug \d+ anzeigen$/ })
    .findIndex((dot) => dot.hasAttribute('data-current'));

async function flush() {
  // The carousel measures its slides in animation frames after mounting.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(50);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  installSlideLayout();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('vehicleTitle', () => {
  it('is the name, else brand plus model', () => {
    expect(vehicleTitle({ name: 'Henna', brand: 'BMW', model: 'M3' })).toBe('Henna');
    expect(vehicleTitle({ name: null, brand: 'BMW', model: 'M3' })).toBe('BMW M3');
    expect(vehicleTitle({ name: '  ', brand: 'BMW', model: 'M3' })).toBe('BMW M3');
  });
});

describe('VehicleCarousel', () => {
  it('renders nothing for an empty list', () => {
    const { container } = render(<VehicleCarousel vehicles={[]} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows a single vehicle without buttons or dots', async () => {
    render(<VehicleCarousel vehicles={[vehicle('1', { name: null })]} />);
    await flush();

    expect(screen.getByRole('heading', { level: 3, name: 'BMW M3 (E30)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nächstes Fahrzeug' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Vorheriges Fahrzeug' })).toBeNull();
    expect(screen.queryAllByRole('button', { name: /anzeigen$/ })).toHaveLength(0);
  });

  it('shows the hero thumbnail with the crop position and zoom applied', async () => {
    render(
      <VehicleCarousel
        vehicles={[vehicle('1'), vehicle('2', { name: 'Ohne Vorschau', hero: hero({ thumbnailUrl: null }) })]}
      />,
    );
    await flush();

    const image = screen.getByRole('img', { name: 'Fahrzeug 1' }) as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('/objects/thumbs/a/480.webp');
    expect(image.style.objectPosition).toBe('30% 70%');
    expect(image.style.transform).toBe('scale(1.5)');
    expect(screen.getByRole('img', { name: 'Ohne Vorschau' }).getAttribute('src')).toBe(
      '/objects/uploads/a/original.jpg',
    );
  });

  it('has previous/next buttons and one dot per vehicle when there are several', async () => {
    render(<VehicleCarousel vehicles={[vehicle('1'), vehicle('2'), vehicle('3')]} />);
    await flush();

    expect(screen.getByRole('button', { name: 'Nächstes Fahrzeug' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Vorheriges Fahrzeug' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Fahrzeug \d+ anzeigen$/ })).toHaveLength(3);
    expect(currentDot()).toBe(0);

    fireEvent.click(screen.getByRole('button', { name: 'Nächstes Fahrzeug' }));
    await flush();
    expect(currentDot()).toBe(1);

    fireEvent.click(screen.getByRole('button', { name: 'Fahrzeug 3 anzeigen' }));
    await flush();
    expect(currentDot()).toBe(2);
  });

  it('advances every 90 seconds and wraps around to the first vehicle', async () => {
    render(<VehicleCarousel vehicles={[vehicle('1'), vehicle('2'), vehicle('3')]} />);
    await flush();
    expect(currentDot()).toBe(0);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(CAROUSEL_INTERVAL_MS - 1000);
    });
    expect(currentDot()).toBe(0);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(currentDot()).toBe(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(CAROUSEL_INTERVAL_MS);
    });
    expect(currentDot()).toBe(2);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(CAROUSEL_INTERVAL_MS);
    });
    expect(currentDot()).toBe(0);
  });

  it('holds while paused', async () => {
    render(<VehicleCarousel vehicles={[vehicle('1'), vehicle('2')]} />);
    await flush();

    const pause = screen.getByRole('button', { name: 'Automatischen Wechsel anhalten' });
    fireEvent.click(pause);
    expect(pause.getAttribute('aria-pressed')).toBe('true');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CAROUSEL_INTERVAL_MS * 2);
    });
    expect(currentDot()).toBe(0);

    fireEvent.click(pause);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(CAROUSEL_INTERVAL_MS);
    });
    expect(currentDot()).toBe(1);
  });

  it('labels each slide with its position', async () => {
    render(<VehicleCarousel vehicles={[vehicle('1'), vehicle('2')]} />);
    await flush();
    const slide = screen.getByRole('group', { name: '1 von 2' });
    expect(within(slide).getByRole('heading', { name: 'Fahrzeug 1' })).toBeTruthy();
  });
});

describe('ConfirmedVehiclesSection', () => {
  function renderSection(body: unknown) {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <ConfirmedVehiclesSection />
      </QueryClientProvider>,
    );
    return fetchMock;
  }

  it('loads GET /api/vehicles/public and shows the carousel', async () => {
    const fetchMock = renderSection([vehicle('1'), vehicle('2')]);
    expect(screen.getByLabelText('Bestätigte Fahrzeuge werden geladen')).toBeTruthy();
    await flush();

    expect(fetchMock).toHaveBeenCalledWith(
      '/api/vehicles/public',
      expect.objectContaining({ method: 'GET' }),
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Bestätigte Fahrzeuge' })).toBeTruthy();
    // The carousel is built once the section is near the screen (the observer here reports it so).
    await flush();
    expect(screen.getAllByRole('button', { name: /^Fahrzeug \d+ anzeigen$/ })).toHaveLength(2);
  });

  it('renders nothing when no vehicle is confirmed', async () => {
    renderSection([]);
    await flush();

    expect(screen.queryByRole('heading', { name: 'Bestätigte Fahrzeuge' })).toBeNull();
    expect(screen.queryByLabelText('Bestätigte Fahrzeuge werden geladen')).toBeNull();
  });
});
