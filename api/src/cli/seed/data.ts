/**
 * The demo data of `npm run seed`: accounts, vehicles of the German tuning scene, the status log
 * that leads each vehicle to its status, and the photos to generate. Times are relative to the
 * moment the seed runs (days ago), so the data always looks recent; once the current edition's
 * applications have closed, relative to their close, so its record lies before its meeting.
 */
import type { DriveType, FuelType, Role, VehicleStatus } from '@schlosstreffen/shared';

/** Password of every seeded account. */
export const SEED_PASSWORD = 'schlosstreffen';

export interface SeedUser {
  /** Reference used by the vehicles below. */
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  phone?: string;
  instagramHandle?: string;
  /** Judges the demo jury's classes from the meeting day on (the first one leads them). */
  judge?: boolean;
}

/** Who performs a status change: the vehicle's owner, the reviewer or the admin account. */
export type SeedActor = 'owner' | 'reviewer' | 'admin';

export interface SeedStep {
  to: VehicleStatus;
  by: SeedActor;
  /** When, in days before the seed runs; strictly decreasing along a history. */
  daysAgo: number;
  comment?: string;
  score?: number;
}

/** Crop settings of one photo; unset values take the spec's defaults 50 / 50 / 100. */
export interface SeedPhoto {
  cropX?: string;
  cropY?: string;
  scale?: string;
}

export interface SeedVehicle {
  owner: string;
  brand: string;
  model: string;
  name?: string;
  year: number;
  color: string;
  licensePlate?: string;
  vin?: string;
  tuningCategories: string[];
  descriptionShort: string;
  descriptionLong: string;
  specialMods?: string;
  ps: number;
  torqueNm: number;
  weightKg: number;
  topSpeedKmh: number;
  zeroToHundredS: number;
  quarterMileS?: number;
  driveType: DriveType;
  displacementCcm: number;
  /** Null for the rotary engine. */
  cylinders: number | null;
  fuelType: FuelType;
  /** Base hue (0–360) of the generated photos. */
  hue: number;
  /** One entry per photo, in order; the first is the hero image. */
  photos: SeedPhoto[];
  createdDaysAgo: number;
  /** Status changes from draft on; empty for a draft that was never submitted. */
  history: SeedStep[];
  /** A confirmed car that did not come: once the meeting is over, the others were let in at the gate. */
  noShow?: boolean;
}

export const SEED_USERS: SeedUser[] = [
  {
    key: 'admin',
    email: 'admin@schlosstreffen.de',
    firstName: 'Thomas',
    lastName: 'Richter',
    role: 'admin',
    phone: '+49 30 23125 100',
  },
  {
    key: 'reviewer',
    email: 'pruefer@schlosstreffen.de',
    firstName: 'Andrea',
    lastName: 'Krüger',
    role: 'reviewer',
    phone: '+49 30 23125 101',
  },
  {
    key: 'lena',
    email: 'lena.weber@example.de',
    firstName: 'Lena',
    lastName: 'Weber',
    role: 'user',
    phone: '+49 30 23125 411',
    instagramHandle: '@lena.gti16v',
  },
  {
    key: 'jonas',
    email: 'jonas.becker@example.de',
    firstName: 'Jonas',
    lastName: 'Becker',
    role: 'user',
    phone: '+49 40 66969 207',
    instagramHandle: '@jonas.e30',
  },
  {
    key: 'sophie',
    email: 'sophie.hoffmann@example.de',
    firstName: 'Sophie',
    lastName: 'Hoffmann',
    role: 'user',
    phone: '+49 89 99998 352',
    instagramHandle: '@sophie_s2coupe',
  },
  {
    key: 'max',
    email: 'max.schulz@example.de',
    firstName: 'Maximilian',
    lastName: 'Schulz',
    role: 'user',
    phone: '+49 69 90009 118',
    instagramHandle: '@maxschulz.964',
  },
  {
    key: 'marie',
    email: 'marie.fischer@example.de',
    firstName: 'Marie',
    lastName: 'Fischer',
    role: 'user',
    phone: '+49 30 23125 736',
    instagramHandle: '@marie.evo',
  },
  {
    key: 'felix',
    email: 'felix.wagner@example.de',
    firstName: 'Felix',
    lastName: 'Wagner',
    role: 'user',
    phone: '+49 40 66969 581',
    instagramHandle: '@felix_evo2',
  },
  {
    key: 'jury1',
    email: 'jury1@schlosstreffen.de',
    firstName: 'Katrin',
    lastName: 'Vogel',
    role: 'user',
    judge: true,
  },
  {
    key: 'jury2',
    email: 'jury2@schlosstreffen.de',
    firstName: 'Stefan',
    lastName: 'Wolf',
    role: 'user',
    judge: true,
  },
  {
    key: 'jury3',
    email: 'jury3@schlosstreffen.de',
    firstName: 'Miriam',
    lastName: 'Hahn',
    role: 'user',
    judge: true,
  },
];

/** A class of the demo jury: its cars (every confirmed one, or up to a construction year) and places. */
export interface SeedJuryClass {
  name: string;
  places: number;
  yearTo?: number;
  /** The jury's order of the cars by name (others after them, by start number): the values follow it. */
  favourites: string[];
}

/** The demo jury's classes, each with the default scorecard. */
export const SEED_JURY_CLASSES: SeedJuryClass[] = [
  { name: 'Best of Show', places: 3, favourites: ['Rote Zora', 'Henna'] },
  { name: 'Bester Umbau', places: 3, favourites: ['Henna', 'Rote Zora'] },
  { name: 'Bester Klassiker', places: 1, yearTo: 1989, favourites: ['Henna', 'Rote Zora'] },
];

// Building blocks of the histories.
const submit = (daysAgo: number): SeedStep => ({ to: 'submitted', by: 'owner', daysAgo });
const startReview = (daysAgo: number, comment?: string): SeedStep => ({
  to: 'in_review',
  by: 'reviewer',
  daysAgo,
  comment,
});
const decide = (
  to: VehicleStatus,
  by: SeedActor,
  daysAgo: number,
  comment: string,
  score?: number,
): SeedStep => ({ to, by, daysAgo, comment, score });
const accept = (daysAgo: number): SeedStep => ({ to: 'confirmed', by: 'owner', daysAgo });

export const SEED_VEHICLES: SeedVehicle[] = [
  {
    owner: 'lena',
    brand: 'Volkswagen',
    model: 'Golf II GTI 16V',
    name: 'Rote Zora',
    year: 1989,
    color: 'Tornadorot',
    licensePlate: 'L-LW 89H',
    vin: 'WVWZZZ1GZKW412233',
    tuningCategories: ['Motor', 'Fahrwerk', 'Optik'],
    descriptionShort:
      'Golf II GTI 16V in Tornadorot, seit 2009 in meinem Besitz und Stück für Stück zum Straßensportler aufgebaut.',
    descriptionLong:
      'Den Golf habe ich 2009 als Alltagsauto mit 180.000 km gekauft. Seitdem ist er mein Projekt: Der KR-Motor wurde komplett überholt und bekam eine schärfere Nockenwelle, Einzeldrosselklappen und eine frei programmierbare Steuerung. Mit 185 PS auf dem Leistungsprüfstand fährt er sich spritzig, bleibt aber alltagstauglich.\n\nDas Fahrwerk ist ein Gewindefahrwerk mit Domstreben vorn und hinten, dazu BBS RM in 7x15. Innen sind die originalen Recaro-Sitze neu bezogen. Alle Umbauten sind eingetragen, der Wagen fährt mit H-Kennzeichen.',
    specialMods:
      'Einzeldrosselklappen, Nockenwelle 276°, Edelstahl-Fächerkrümmer, Gewindefahrwerk, BBS RM 7x15, Bremsanlage vom Corrado G60',
    ps: 185,
    torqueNm: 210,
    weightKg: 960,
    topSpeedKmh: 220,
    zeroToHundredS: 7.2,
    quarterMileS: 15.4,
    driveType: 'FWD',
    displacementCcm: 1781,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 355,
    photos: [{}, {}, { cropY: '40', scale: '110' }],
    createdDaysAgo: 58,
    history: [
      submit(57.8),
      startReview(54.2, 'Sichtung begonnen, Fotos und Eintragungen vollständig.'),
      decide(
        'invited',
        'admin',
        50.1,
        'Top erhaltener 16V, perfekte Ergänzung für die Youngtimer-Reihe in Zone A.',
        9,
      ),
      accept(48.6),
    ],
  },
  {
    owner: 'jonas',
    brand: 'BMW',
    model: 'M3 (E30)',
    name: 'Henna',
    year: 1988,
    color: 'Henna-Rot',
    licensePlate: 'DD-JB 88H',
    vin: 'WBSAK010X0AE12345',
    tuningCategories: ['Motor', 'Fahrwerk', 'Bremsen', 'Restaurierung'],
    descriptionShort: 'Originaler E30 M3 mit überarbeitetem S14, Gruppe-A-Optik und viel Liebe zum Detail.',
    descriptionLong:
      'Der M3 stand zwölf Jahre in einer Scheune bei Zwickau, bevor ich ihn 2018 gefunden habe. Die Karosserie wurde komplett entlackt, konserviert und im Originalton Henna-Rot neu lackiert.\n\nDer S14 hat geschmiedete Kolben, einen bearbeiteten Zylinderkopf und eine Gruppe-A-Abgasanlage bekommen und leistet jetzt 235 PS. Dazu ein Sperrdifferenzial mit 25 % Sperrwirkung, Bilstein-Fahrwerk und die typischen Kreuzspeichenfelgen in 16 Zoll.',
    specialMods:
      'Schmiedekolben, Zylinderkopf bearbeitet, Gruppe-A-Abgasanlage, Sperrdifferenzial 25 %, Bilstein B16, Bremse vorn 4-Kolben',
    ps: 235,
    torqueNm: 250,
    weightKg: 1200,
    topSpeedKmh: 240,
    zeroToHundredS: 6.5,
    quarterMileS: 14.6,
    driveType: 'RWD',
    displacementCcm: 2302,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 12,
    photos: [{}, {}, {}, { cropX: '60' }],
    createdDaysAgo: 62,
    history: [
      submit(61.5),
      startReview(59),
      decide(
        'invited',
        'reviewer',
        55.3,
        'Sehr sauberes Exemplar, Motorumbau dokumentiert (Gutachten liegt bei). Klare Einladung.',
        10,
      ),
      accept(52.9),
    ],
  },
  {
    owner: 'sophie',
    brand: 'Audi',
    model: 'S2 Coupé',
    year: 1993,
    color: 'Perlmuttweiß',
    licensePlate: 'C-SH 932',
    tuningCategories: ['Motor', 'Turbo', 'Abgasanlage', 'Bremsen'],
    descriptionShort: 'S2 Coupé mit 3B-Fünfzylinder, größerem Lader und eingetragenen 320 PS.',
    descriptionLong:
      'Das Coupé ist mein Alltagsklassiker: im Sommer viel gefahren, im Winter trocken untergestellt. Der 3B-Motor hat einen K26-Lader mit größerer Verdichterseite, einen Ladeluftkühler aus dem RS2 und eine angepasste Software bekommen.\n\nDer Klang des Fünfzylinders mit der 76-mm-Anlage ist unverwechselbar. Fahrwerk KW Variante 1, vorn die Brembo-Bremse aus dem RS2, Felgen Avus in 17 Zoll.',
    specialMods: 'K26-Lader modifiziert, RS2-Ladeluftkühler, 76-mm-Abgasanlage, KW V1, RS2-Bremse vorn',
    ps: 320,
    torqueNm: 400,
    weightKg: 1440,
    topSpeedKmh: 255,
    zeroToHundredS: 5.4,
    quarterMileS: 13.6,
    driveType: 'AWD',
    displacementCcm: 2226,
    cylinders: 5,
    fuelType: 'Benzin',
    hue: 200,
    photos: [{}, {}, {}],
    createdDaysAgo: 40,
    history: [
      submit(39.6),
      startReview(33.2, 'Leistungsangabe gegen Eintragung prüfen.'),
      decide(
        'invited',
        'admin',
        21.4,
        'Eintragung über 320 PS liegt vor. Schöner Fünfzylinder, Einladung raus.',
        8,
      ),
    ],
  },
  {
    owner: 'max',
    brand: 'Porsche',
    model: '911 Turbo (964)',
    year: 1991,
    color: 'Guardsrot',
    licensePlate: 'M-MS 964H',
    vin: 'WP0ZZZ96ZMS470123',
    tuningCategories: ['Motor', 'Fahrwerk', 'Restaurierung'],
    descriptionShort: '964 Turbo 3.3 in Guardsrot, technisch überholt und dezent auf 360 PS gebracht.',
    descriptionLong:
      'Der 964 Turbo ist für mich der schönste Elfer: breites Heck, großer Heckflügel, kein Schnickschnack. Mein Exemplar kommt aus erster Hand aus Stuttgart und hat ein lückenloses Scheckheft.\n\nBei der Motorrevision 2021 gab es einen größeren Ladeluftkühler, eine Sportabgasanlage und eine geänderte Ladedruckregelung. Das Fahrwerk ist ein Bilstein Clubsport, sonst ist der Wagen bewusst original gehalten.',
    ps: 360,
    torqueNm: 480,
    weightKg: 1470,
    topSpeedKmh: 280,
    zeroToHundredS: 4.8,
    quarterMileS: 12.9,
    driveType: 'RWD',
    displacementCcm: 3299,
    cylinders: 6,
    fuelType: 'Benzin',
    hue: 0,
    photos: [{}, { cropY: '45' }, {}, {}],
    createdDaysAgo: 70,
    history: [
      submit(69.7),
      startReview(66),
      decide(
        'waitlist',
        'admin',
        60,
        'Hochwertiges Fahrzeug, aber das Porsche-Kontingent in Zone A ist vorerst voll.',
        7,
      ),
      decide('invited', 'admin', 44, 'Nachrücker: Platz in Zone A ist frei geworden.'),
      accept(43.2),
    ],
    noShow: true,
  },
  {
    owner: 'marie',
    brand: 'Opel',
    model: 'Calibra Turbo 4x4',
    name: 'Cali',
    year: 1993,
    color: 'Starsilber',
    licensePlate: 'B-MF 204',
    tuningCategories: ['Motor', 'Turbo', 'Optik'],
    descriptionShort: 'Calibra Turbo 4x4 mit überarbeitetem C20LET, 280 PS, Allrad und Sechsganggetriebe.',
    descriptionLong:
      'Der Calibra Turbo war schon ab Werk ein unterschätztes Auto. Meiner hat einen größeren Turbolader, verstärkte Pleuel und eine 3-Zoll-Downpipe bekommen. Das F28-Sechsganggetriebe wurde überholt und mit einer verstärkten Kupplung kombiniert.\n\nOptisch ist noch nicht alles fertig: Die Frontschürze im DTM-Stil ist angepasst, wird aber erst im Winter lackiert. Innen sitzen Recaro-Sitze aus dem Astra OPC.',
    specialMods:
      'Turbolader Garrett GT28, verstärkte Pleuel, 3-Zoll-Downpipe, Kupplung verstärkt, DTM-Frontschürze',
    ps: 280,
    torqueNm: 380,
    weightKg: 1350,
    topSpeedKmh: 250,
    zeroToHundredS: 5.9,
    driveType: 'AWD',
    displacementCcm: 1998,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 220,
    photos: [{}, {}],
    createdDaysAgo: 35,
    history: [
      submit(34.8),
      startReview(30.5),
      decide(
        'waitlist',
        'reviewer',
        26,
        'Solider Umbau, Optik noch unfertig (Spachtelstellen an der Frontschürze). Warteliste.',
        6,
      ),
    ],
  },
  {
    owner: 'felix',
    brand: 'Mercedes-Benz',
    model: '190 E 2.5-16 Evolution II',
    name: 'Evo II',
    year: 1990,
    color: 'Blauschwarz metallic',
    licensePlate: 'Z-FW 502H',
    tuningCategories: ['Motor', 'Restaurierung', 'Optik'],
    descriptionShort:
      'Einer von 502: 190 E Evolution II im Originalzustand mit behutsam überarbeitetem Motor.',
    descriptionLong:
      'Die Evo II ist das Homologationsmodell für die DTM 1990 und mit dem riesigen Heckflügel unverwechselbar. Meine trägt die Nummer 318 von 502 und ist seit 1997 in Familienbesitz.\n\nDer Motor wurde bei einem Mercedes-Spezialisten revidiert und leicht optimiert, sonst ist alles original bis zur Bordmappe. Die Niveauregulierung funktioniert und lässt sich per Schalter in der Mittelkonsole verstellen.',
    ps: 235,
    torqueNm: 245,
    weightKg: 1340,
    topSpeedKmh: 250,
    zeroToHundredS: 7.1,
    quarterMileS: 15.1,
    driveType: 'RWD',
    displacementCcm: 2463,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 235,
    photos: [{}, {}, {}, { cropY: '40', scale: '110' }],
    createdDaysAgo: 47,
    history: [
      submit(46.5),
      startReview(42.2),
      decide(
        'invited',
        'reviewer',
        37.8,
        'Seltenes Homologationsmodell, absolutes Highlight. Unbedingt einladen, Platz am Schlosseingang.',
        9,
      ),
    ],
  },
  {
    owner: 'max',
    brand: 'Nissan',
    model: 'Skyline GT-R (R34)',
    name: 'Godzilla',
    year: 1999,
    color: 'Bayside Blue',
    tuningCategories: ['Motor', 'Turbo', 'Fahrwerk', 'Elektronik'],
    descriptionShort: 'Japan-Import mit RB26DETT auf Single-Turbo umgebaut, 520 PS, Einzelabnahme in Arbeit.',
    descriptionLong:
      'Den R34 habe ich 2023 aus Japan importiert. Der RB26 hat einen Garrett-Single-Turbo, geschmiedete Innereien und eine frei programmierbare Motorsteuerung bekommen. Auf dem Prüfstand stehen 520 PS und 600 Nm.\n\nDas ATTESA-Allradsystem arbeitet mit einer angepassten Steuerung, das Fahrwerk ist ein Nismo-Gewindefahrwerk. Die Einzelabnahme beim TÜV läuft gerade.',
    specialMods:
      'Garrett G35 Single-Turbo, Schmiedekolben, frei programmierbares Steuergerät, Nismo-Fahrwerk',
    ps: 520,
    torqueNm: 600,
    weightKg: 1560,
    topSpeedKmh: 290,
    zeroToHundredS: 3.9,
    quarterMileS: 11.8,
    driveType: 'AWD',
    displacementCcm: 2568,
    cylinders: 6,
    fuelType: 'Benzin',
    hue: 215,
    photos: [{}, {}, {}],
    createdDaysAgo: 18,
    history: [
      submit(17.4),
      startReview(12.1, 'Importpapiere und Stand der Einzelabnahme beim Besitzer angefragt.'),
    ],
  },
  {
    owner: 'jonas',
    brand: 'Toyota',
    model: 'Supra (A80)',
    name: 'Big Single',
    year: 1995,
    color: 'Super White',
    licensePlate: 'DD-JB 650',
    tuningCategories: ['Motor', 'Turbo', 'Getriebe'],
    descriptionShort: '2JZ-GTE mit großem Einzellader, 650 PS und trotzdem zahm im Stadtverkehr.',
    descriptionLong:
      'Die Supra ist ein US-Rückläufer, den ich 2016 in sehr schlechtem Zustand übernommen habe. Heute steckt im 2JZ ein Precision-Lader, eine E85-taugliche Einspritzung und das Sechsgang-Getrag aus der Biturbo-Version.\n\nDie Karosserie bekam eine Komplettlackierung, Front und Heckflügel sind original. Das Auto wird auf der Straße gefahren, nicht nur auf dem Prüfstand.',
    specialMods: 'Precision 6466, Einspritzdüsen 1000 cc, Getrag V160, Kupplung Doppelscheibe',
    ps: 650,
    torqueNm: 780,
    weightKg: 1490,
    topSpeedKmh: 300,
    zeroToHundredS: 3.6,
    quarterMileS: 11.2,
    driveType: 'RWD',
    displacementCcm: 2997,
    cylinders: 6,
    fuelType: 'Benzin',
    hue: 45,
    photos: [{}, {}, {}],
    createdDaysAgo: 9,
    history: [submit(8.6)],
  },
  {
    owner: 'felix',
    brand: 'Subaru',
    model: 'Impreza WRX STI',
    year: 2001,
    color: 'World Rally Blue',
    tuningCategories: ['Motor', 'Fahrwerk', 'Optik'],
    descriptionShort: 'Impreza STI im Rallye-Look mit goldenen Felgen, 330 PS und Schotterfahrwerk.',
    descriptionLong:
      'Mein Impreza ist ein Import aus Großbritannien mit Rechtslenkung. Der EJ20 hat einen größeren Lader und eine offene Abgasanlage bekommen, dazu ein Schotterfahrwerk und goldene Felgen im Rallye-Design.\n\nIm Sommer wird der Wagen auf Slalom-Veranstaltungen bewegt, deshalb sind Käfig und Schalensitze verbaut.',
    specialMods: 'Größerer Lader, offene Abgasanlage, Schotterfahrwerk, Käfig, Schalensitze',
    ps: 330,
    torqueNm: 440,
    weightKg: 1390,
    topSpeedKmh: 255,
    zeroToHundredS: 4.9,
    driveType: 'AWD',
    displacementCcm: 1994,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 225,
    photos: [{}, {}],
    createdDaysAgo: 52,
    history: [
      submit(51.2),
      startReview(48.7),
      decide(
        'rejected',
        'admin',
        44.5,
        'Keine gültige HU, Abgasanlage ohne ABE. Absage mit Hinweis auf das nächste Jahr.',
        3,
      ),
    ],
  },
  {
    owner: 'marie',
    brand: 'Mitsubishi',
    model: 'Lancer Evolution VI',
    year: 1999,
    color: 'Passion Red',
    licensePlate: 'B-MF 699',
    tuningCategories: ['Motor', 'Turbo', 'Fahrwerk', 'Optik'],
    descriptionShort: 'Evo VI in Tommi-Mäkinen-Optik mit 340 PS und kurz übersetztem Getriebe.',
    descriptionLong:
      'Der Evo ist seit 2015 bei mir und wurde schrittweise aufgebaut: Titan-Turbolader, größerer Ladeluftkühler, Abgasanlage in 3 Zoll und eine abgestimmte Motorsteuerung bringen ihn auf 340 PS.\n\nDie Lackierung im Stil der Tommi-Mäkinen-Edition habe ich selbst entworfen. Fahrwerk und Bremsen sind auf Rundstrecke ausgelegt, trotzdem fahre ich ihn zur Arbeit.',
    ps: 340,
    torqueNm: 430,
    weightKg: 1360,
    topSpeedKmh: 245,
    zeroToHundredS: 4.6,
    quarterMileS: 12.8,
    driveType: 'AWD',
    displacementCcm: 1997,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 348,
    photos: [{}, {}, { cropX: '35', scale: '120' }],
    createdDaysAgo: 15,
    history: [submit(14.2), startReview(6.9, 'Optik geprüft, es fehlen noch Fotos vom Motorraum.')],
  },
  {
    owner: 'lena',
    brand: 'Honda',
    model: 'Civic Type R (EK9)',
    year: 1998,
    color: 'Championship White',
    tuningCategories: ['Fahrwerk', 'Innenraum'],
    descriptionShort: 'Originaler EK9 mit B16B, Zustand fast wie ab Werk.',
    descriptionLong:
      'Mein zweites Projekt neben dem Golf: ein originaler EK9 aus Japan. Bisher gab es nur ein Spoon-Fahrwerk und neu bezogene Recaros, der B16B ist noch serienmäßig.\n\nDie Bewerbung ist noch nicht fertig, Fotos folgen nach der Aufbereitung.',
    ps: 190,
    torqueNm: 160,
    weightKg: 1050,
    topSpeedKmh: 230,
    zeroToHundredS: 6.7,
    driveType: 'FWD',
    displacementCcm: 1595,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 160,
    photos: [{}],
    createdDaysAgo: 4,
    history: [],
  },
  {
    owner: 'sophie',
    brand: 'Volkswagen',
    model: 'Corrado VR6',
    year: 1992,
    color: 'Classicgrün perleffekt',
    licensePlate: 'C-SH 286',
    tuningCategories: ['Motor', 'Abgasanlage', 'Innenraum'],
    descriptionShort: 'Corrado VR6 in seltenem Classicgrün mit 210 PS und originalem Lederinnenraum.',
    descriptionLong:
      'Der Corrado ist seit 20 Jahren in der Familie, zuerst bei meinem Vater, seit 2019 bei mir. Der VR6 hat eine Nockenwelle mit 268°, eine Edelstahlanlage und eine angepasste Software bekommen.\n\nDer Innenraum in grauem Leder ist original und top erhalten, die Karosserie hat nie Schweißarbeiten gebraucht.',
    ps: 210,
    torqueNm: 260,
    weightKg: 1230,
    topSpeedKmh: 235,
    zeroToHundredS: 6.8,
    quarterMileS: 15,
    driveType: 'FWD',
    displacementCcm: 2861,
    cylinders: 6,
    fuelType: 'Benzin',
    hue: 140,
    photos: [{}, {}, {}],
    createdDaysAgo: 45,
    history: [
      submit(44.3),
      startReview(40),
      decide(
        'waitlist',
        'admin',
        35.5,
        'Sehr gepflegt, aber es sind schon drei Corrados eingeladen. Warteliste, Platz 2.',
        7,
      ),
    ],
  },
  {
    owner: 'felix',
    brand: 'BMW',
    model: '2002 turbo',
    name: 'Turbo-Zwo',
    year: 1974,
    color: 'Chamonixweiß',
    licensePlate: 'Z-FW 74H',
    tuningCategories: ['Restaurierung', 'Optik', 'Fahrwerk'],
    descriptionShort:
      'Deutschlands erster Serien-Turbo: 2002 turbo mit Motorsport-Streifen und Spiegelschrift im Frontspoiler.',
    descriptionLong:
      'Der 2002 turbo kam 1973 als erstes deutsches Serienauto mit Abgasturbolader auf den Markt, gebaut wurden nur 1.672 Stück. Meiner wurde 2015 bis 2019 vollständig restauriert.\n\nTechnisch ist er nah am Original, mit zeitgenössischen Verbesserungen: Bilstein-Dämpfer, eine überarbeitete Kugelfischer-Einspritzung und eine Zündung mit Kennfeld. Die Kotflügelverbreiterungen sind original.',
    ps: 170,
    torqueNm: 240,
    weightKg: 1080,
    topSpeedKmh: 211,
    zeroToHundredS: 7,
    driveType: 'RWD',
    displacementCcm: 1990,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 28,
    photos: [{}, {}, {}, {}],
    createdDaysAgo: 66,
    history: [
      submit(65.4),
      startReview(61),
      decide('waitlist', 'reviewer', 57.5, 'Toller Klassiker, Stellplatz in Zone C noch ungeklärt.', 8),
      decide('invited', 'admin', 24.3, 'Klassiker-Reihe erweitert, Einladung verschickt.'),
    ],
  },
  {
    owner: 'jonas',
    brand: 'Ford',
    model: 'Escort RS Cosworth',
    year: 1994,
    color: 'Mondsteinblau',
    licensePlate: 'DD-JB 310',
    tuningCategories: ['Motor', 'Turbo', 'Optik'],
    descriptionShort: 'Escort Cosworth mit Walfisch-Heckflügel, Hybridlader und 310 PS.',
    descriptionLong:
      'Der Escort Cosworth ist mein Kindheitstraum. Der YB-Motor hat einen Hybridlader, einen größeren Ladeluftkühler und eine Motorsteuerung mit Kennfeld für Superplus bekommen.\n\nDer Wagen ist ein Originalfahrzeug mit dem großen Heckflügel, die Felgen sind OZ Racing in 17 Zoll.',
    ps: 310,
    torqueNm: 400,
    weightKg: 1275,
    topSpeedKmh: 245,
    zeroToHundredS: 5.2,
    driveType: 'AWD',
    displacementCcm: 1993,
    cylinders: 4,
    fuelType: 'Benzin',
    hue: 210,
    photos: [{}, {}],
    createdDaysAgo: 38,
    history: [
      submit(37.7),
      startReview(31),
      decide(
        'rejected',
        'reviewer',
        28.4,
        'Umbau nicht eingetragen (Turbolader, Ladeluftkühler). Ohne Gutachten keine Ausstellung möglich.',
        4,
      ),
    ],
  },
  {
    owner: 'sophie',
    brand: 'Mazda',
    model: 'RX-7 (FD)',
    year: 1993,
    color: 'Vintage Red',
    licensePlate: 'C-SH 713',
    tuningCategories: ['Motor', 'Turbo', 'Fahrwerk'],
    descriptionShort: 'Wankel-Klassiker mit überholtem 13B-REW, Single-Turbo-Umbau und 350 PS.',
    descriptionLong:
      'Der RX-7 ist mein Sommerauto. Der 13B-REW wurde 2022 komplett überholt und von Biturbo auf einen einzelnen, größeren Lader umgebaut. Das macht die Leistungsentfaltung gleichmäßiger und die Technik standfester.\n\nKühlung, Ölversorgung und Zündung sind verstärkt. Das Fahrwerk ist ein Ohlins-Gewindefahrwerk, die Felgen Rays in 18 Zoll.',
    specialMods: 'Single-Turbo-Umbau, Kühler Aluminium, Ölkühler, Zündanlage verstärkt, Ohlins Road & Track',
    ps: 350,
    torqueNm: 400,
    weightKg: 1280,
    topSpeedKmh: 260,
    zeroToHundredS: 4.9,
    driveType: 'RWD',
    displacementCcm: 1308,
    cylinders: null,
    fuelType: 'Benzin',
    hue: 5,
    photos: [{}, {}, {}],
    createdDaysAgo: 23,
    history: [
      submit(22.5),
      { to: 'draft', by: 'owner', daysAgo: 21.8 },
      { to: 'submitted', by: 'owner', daysAgo: 5.3 },
    ],
  },
  {
    owner: 'max',
    brand: 'Audi',
    model: 'Sport quattro',
    year: 1985,
    color: 'Alpinweiß',
    tuningCategories: ['Restaurierung'],
    descriptionShort: 'Kurzer Sport quattro, einer von 214 Straßenfahrzeugen, in Alpinweiß.',
    descriptionLong:
      'Der Sport quattro ist das Straßenfahrzeug zur Gruppe-B-Homologation mit dem um 32 cm gekürzten Radstand. Meiner ist in Restaurierung, die Bewerbung reiche ich ein, sobald er wieder fährt.',
    ps: 306,
    torqueNm: 370,
    weightKg: 1300,
    topSpeedKmh: 250,
    zeroToHundredS: 4.8,
    driveType: 'AWD',
    displacementCcm: 2133,
    cylinders: 5,
    fuelType: 'Benzin',
    hue: 190,
    photos: [],
    createdDaysAgo: 2,
    history: [],
  },
];
