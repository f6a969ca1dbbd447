/** Deterministic pseudo-random numbers, so the stars sit in the same place on every render. */
function seeded(seed: number) {
  let value = seed;
  return () => {
    value = (value * 16807) % 2147483647;
    return value / 2147483647;
  };
}

const random = seeded(20260620);
const STARS = Array.from({ length: 70 }, () => ({
  x: Math.round(random() * 1440),
  y: Math.round(random() * 520),
  r: 0.5 + random() * 1.1,
  o: 0.25 + random() * 0.6,
}));

/** Battlements along a wall top: small merlons from x1 to x2 at height y. */
function merlons(x1: number, x2: number, y: number, width = 10, gap = 8) {
  const items = [];
  for (let x = x1; x + width <= x2; x += width + gap) items.push({ x, y: y - 10, width });
  return items;
}

const WALLS: { x: number; y: number; w: number; h: number }[] = [
  { x: 470, y: 520, w: 500, h: 200 }, // curtain wall
  { x: 560, y: 430, w: 120, h: 290 }, // west hall
  { x: 780, y: 450, w: 110, h: 270 }, // east hall
  { x: 665, y: 360, w: 110, h: 360 }, // keep
  { x: 440, y: 440, w: 56, h: 280 }, // west tower
  { x: 945, y: 470, w: 52, h: 250 }, // east tower
  { x: 700, y: 300, w: 40, h: 70 }, // keep turret
];

const ROOFS = [
  '436,440 468,368 500,440', // west tower
  '941,470 971,404 1001,470', // east tower
  '696,300 720,226 744,300', // keep spire
];

const BATTLEMENTS = [
  ...merlons(500, 560, 520),
  ...merlons(680, 780, 520),
  ...merlons(890, 945, 520),
  ...merlons(560, 680, 430),
  ...merlons(780, 890, 450),
  ...merlons(665, 700, 360, 9, 7),
  ...merlons(740, 775, 360, 9, 7),
];

const WINDOWS = [
  { x: 462, y: 480 },
  { x: 462, y: 540 },
  { x: 590, y: 470 },
  { x: 636, y: 470 },
  { x: 590, y: 540 },
  { x: 705, y: 400 },
  { x: 735, y: 400 },
  { x: 715, y: 470 },
  { x: 813, y: 490 },
  { x: 851, y: 490 },
  { x: 965, y: 510 },
  { x: 520, y: 580 },
  { x: 905, y: 580 },
];

/** Night sky with stars, a moon and a warm glow over the horizon: the hero's background. */
export function HeroSky() {
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0 -z-10 overflow-hidden">
      <div className="absolute inset-x-0 bottom-0 h-[70%] bg-[radial-gradient(ellipse_70%_60%_at_50%_100%,rgba(212,168,72,0.2),transparent_70%)]" />
      <svg viewBox="0 0 1440 720" preserveAspectRatio="xMidYMin slice" className="absolute inset-0 size-full">
        {STARS.map((star, index) => (
          <circle key={index} cx={star.x} cy={star.y} r={star.r} fill="#efe7d6" opacity={star.o} />
        ))}
      </svg>
      <div className="absolute top-28 right-[9%] hidden size-56 rounded-full sm:block bg-[radial-gradient(circle,rgba(246,227,173,0.35)_0%,rgba(241,213,138,0.12)_45%,transparent_70%)] ">
        <div className="absolute inset-0 m-auto size-14 rounded-full bg-gold-200/60 shadow-[0_0_40px_rgba(246,227,173,0.45)]" />
      </div>
    </div>
  );
}

/** A castle silhouette with lit windows on a hill, closing off the hero at the bottom. */
export function CastleSilhouette({ className = '' }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 200 1440 520"
      overflow="visible"
      className={`pointer-events-none block max-w-none ${className}`}
    >
      <defs>
        <linearGradient id="castle-fill" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0%" stopColor="#221d16" />
          <stop offset="100%" stopColor="#0b0a08" />
        </linearGradient>
        <filter id="castle-glow" x="-50%" y="-50%" width="200%" height="200%">
          <feGaussianBlur stdDeviation="4" />
        </filter>
      </defs>

      {/* Distant hills */}
      <path
        d="M-1600 650 C -800 600 -300 660 0 640 C 240 590 420 625 620 612 S 1040 585 1440 628 C 1800 650 2400 600 3040 640 V720 H-1600 Z"
        fill="#15120e"
      />

      <g fill="url(#castle-fill)" stroke="rgba(212,168,72,0.28)" strokeWidth="1">
        {WALLS.map((wall, index) => (
          <rect key={index} x={wall.x} y={wall.y} width={wall.w} height={wall.h} />
        ))}
        {ROOFS.map((points) => (
          <polygon key={points} points={points} />
        ))}
        {BATTLEMENTS.map((merlon, index) => (
          <rect key={index} x={merlon.x} y={merlon.y} width={merlon.width} height="10" />
        ))}
      </g>

      <g fill="#f1d58a">
        <g filter="url(#castle-glow)" opacity="0.75">
          {WINDOWS.map((w, index) => (
            <rect key={index} x={w.x - 2} y={w.y - 2} width="14" height="22" rx="7" />
          ))}
        </g>
        {WINDOWS.map((w, index) => (
          <rect key={index} x={w.x} y={w.y} width="10" height="18" rx="5" opacity="0.9" />
        ))}
      </g>
      <path d="M700 700 V655 a20 20 0 0 1 40 0 V700 Z" fill="#0b0a08" stroke="rgba(212,168,72,0.4)" />

      {/* Foreground hill */}
      <path
        d="M-1600 700 C -800 680 -300 705 0 690 C 300 668 520 700 720 700 S 1160 672 1440 690 C 1900 705 2500 680 3040 695 V720 H-1600 Z"
        fill="#0b0a08"
      />
    </svg>
  );
}
