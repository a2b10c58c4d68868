/**
 * Fake client records shaped like the live LDA `/api/v1/clients/` service, for the bundled sample and
 * for load tests. Every value comes from seeded PRNGs, and a registrant is rebuilt from its index each
 * time a client needs it, so a run of any length holds a few kilobytes of state. A record depends only
 * on the seed and its position: a shorter run is a prefix of a longer one with the same seed.
 */
import { readFileSync } from 'node:fs';

export interface FakeClientOptions {
  count: number;
  seed?: number;
  firstId?: number;
}

const loadChoices = (file: string): { value: string; name: string }[] =>
  JSON.parse(readFileSync(new URL(`../../src/choices/${file}`, import.meta.url), 'utf8'));
const STATES = loadChoices('lda-states.json');
const COUNTRIES = loadChoices('lda-countries.json');
const STATE_NAMES = new Map(STATES.map((s) => [s.value, s.name]));
const COUNTRY_NAMES = new Map(COUNTRIES.map((c) => [c.value, c.name]));
// The service sends an undetermined country as "" but displays it with the name the list gives "00".
COUNTRY_NAMES.set('', displayOf(COUNTRY_NAMES, '00'));
const FOREIGN = COUNTRIES.map((c) => c.value).filter((code) => code !== '00' && code !== 'US');
const API = 'https://lda.gov/api/v1';

type Rng = () => number;

/** mulberry32: tiny and fast, good enough for test data. Returns floats in [0, 1). */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hashes two integers into one seed (murmur3's finaliser), so neighbouring indexes get unrelated streams. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function displayOf(names: Map<string, string>, code: string): string {
  const name = names.get(code);
  if (name === undefined) throw new Error(`No display name for code "${code}" in src/choices`);
  return name;
}

const stateDisplay = (state: string | null) => (state === null ? null : displayOf(STATE_NAMES, state));

// Vocabularies, `|`-separated to keep them dense. Combinations repeat, as real names do.
const words = (list: string): string[] => list.split('|');
const PREFIXES = words('AMERICAN|NATIONAL|UNITED|GLOBAL|PACIFIC|ATLANTIC|MIDWEST|SOUTHERN|FIRST|SUMMIT|'
  + 'LIBERTY|HARBOR|NORTHSTAR|BLUE RIDGE|GREAT LAKES');
const INDUSTRIES = words('HEALTH|ENERGY|PHARMACEUTICALS|TECHNOLOGIES|FINANCIAL|INSURANCE|RAIL|AEROSPACE|'
  + 'BIOSCIENCES|HOSPITAL|WATER|STEEL|FARM BUREAU|MEDICAL DEVICES|SOFTWARE|TELECOM|CREDIT UNION|SOLAR');
const NOUNS = words('PARTNERS|HOLDINGS|SERVICES|SYSTEMS|RESOURCES|SOLUTIONS|NETWORK|CAPITAL|MANAGEMENT');
const LEGAL_FORMS = words(', LLC| LLC|, INC.| INC| CORPORATION| CORP.| ASSOCIATION| COALITION| COUNCIL|'
  + ' FOUNDATION| L.P.| CO.| GROUP| ALLIANCE| INSTITUTE');
const MEMBERS = words('HOME BUILDERS|COUNTIES|REALTORS|MANUFACTURERS|BROADCASTERS|WATER COMPANIES|'
  + 'COMMUNITY HEALTH CENTERS|CHAIN DRUG STORES');
const SURNAMES = words("SMITH|JOHNSON|WILLIAMS|BROWN|GARCIA|MILLER|DAVIS|RODRIGUEZ|WILSON|ANDERSON|TAYLOR|"
  + "MOORE|JACKSON|LEE|THOMPSON|HARRIS|CLARK|WALKER|KING|WRIGHT|O'BRIEN|MÜLLER|NUÑEZ|PEÑA|BÉLANGER|"
  + 'PATEL|NGUYEN|KIM|COHEN|MURPHY|FITZGERALD|VAN DER BERG|MCALLISTER');
const FIRST_NAMES = words('JAMES|MARY|ROBERT|PATRICIA|JOHN|JENNIFER|MICHAEL|LINDA|DAVID|ELIZABETH|'
  + 'CHRISTINE|SEAN|DAWN|GARY|JOSÉ|MARÍA');
// Names real data has that no pattern makes: other scripts, accents, quotes, ampersands.
const ODD_NAMES = words('日本電気株式会社 (NEC)|三菱商事株式会社|ZÜRICH INSURANCE COMPANY LTD|'
  + 'SOCIÉTÉ GÉNÉRALE|NESTLÉ USA, INC.|NESTLÉ PURINA PETCARE COMPANY|CRÉDIT AGRICOLE CIB|L\'ORÉAL USA, INC.|'
  + 'BANCO SANTANDER, S.A.|NIÑOS UNIDOS DE AMÉRICA|ASOCIACIÓN DE PRODUCTORES DE CAFÉ|THE "QUOTED" COMPANY, INC.|'
  + "AT&T SERVICES, INC.|A & B|CHILDREN'S HOSPITAL ASSOCIATION|Zeta Analytics, Inc.");
// Banks, credit unions, hospitals and universities: kinds of client the registry has many of.
const BANK_NAMES = words('{P} BANK|{P} BANK, N.A.|{P} BANCORP, INC.|FIRST NATIONAL BANK OF {C}|{C} SAVINGS BANK|'
  + '{C} COMMUNITY BANK|{S} BANK & TRUST COMPANY|{P} FEDERAL CREDIT UNION|{C} TEACHERS CREDIT UNION|'
  + '{T} CREDIT UNION LEAGUE|{T} BANKERS ASSOCIATION|INDEPENDENT COMMUNITY BANKERS OF {T}');
const HOSPITAL_NAMES = words('{C} GENERAL HOSPITAL|{S} MEMORIAL HOSPITAL|{P} HEALTH SYSTEM|{C} CHILDREN\'S HOSPITAL|'
  + '{P} MEDICAL CENTER|{T} HOSPITAL ASSOCIATION|{S} CLINIC FOUNDATION|{P} HEALTH, INC.');
const SCHOOL_NAMES = words('UNIVERSITY OF {T}|{T} STATE UNIVERSITY|{S} UNIVERSITY|{P} COLLEGE|'
  + 'THE REGENTS OF THE UNIVERSITY OF {T}|{T} COMMUNITY COLLEGE SYSTEM|{S} INSTITUTE OF TECHNOLOGY');
const CLIENT_DESCRIPTIONS = words('Health benefit plan company|Trade association|Biopharmaceutical company|'
  + 'Software as a service, digital identity verification.|Non-profit research institute|Municipality|'
  + 'Electric utility|Manufacturer of medical devices.|lobbying|Law Firm|Public university|'
  + 'Tribal government|Financial services industry trade association.|Aerospace & defense contractor');
const FIRM_WORDS = words('STRATEGIES|PUBLIC AFFAIRS|CONSULTING|ADVOCATES|GOVERNMENT RELATIONS|POLICY GROUP|'
  + 'ASSOCIATES|GROUP|LAW GROUP|PARTNERS|STRATEGIC PARTNERS|CAPITOL STRATEGIES|ADVISORS');
const FIRM_FORMS = words(', LLC| LLC|, INC.|, PLLC|, LLP|');
const REGISTRANT_DESCRIPTIONS = words('Law Firm|Government Relations Firm.|lobbying firm|Lobbying Firm|'
  + 'Government Affairs Consulting|Government relations firm|Public affairs and strategic communications');
const STREETS = words('Pennsylvania Avenue, NW|K Street NW|New York Ave NW|Wilson Blvd|Main Street|'
  + 'Constitution Avenue NE|Market St|Capitol Street');
const SUITES = words('Suite |SUITE |#');
const BUSY_STATES = words('CA|DC|VA|NY|TX|MD|FL|IL|PA|MA|WA');

type Office = { city: string; state: string | null; country: string; zip: string; dial: string };
// A US office's `zip` is a prefix, completed per registrant.
const us = (city: string, state: string, zip: string, area: string): Office =>
  ({ city, state, country: 'US', zip, dial: `+1 ${area}` });
// Foreign registrants have no US state; their `zip` is complete.
const abroad = (city: string, country: string, zip: string, dial: string): Office =>
  ({ city, state: null, country, zip, dial });
const WASHINGTON = us('Washington', 'DC', '200', '202');
const US_OFFICES = [us('Arlington', 'VA', '222', '703'), us('Alexandria', 'VA', '223', '703'),
  us('Bethesda', 'MD', '208', '301'), us('New York', 'NY', '100', '212'), us('Chicago', 'IL', '606', '312'),
  us('Sacramento', 'CA', '958', '916'), us('Austin', 'TX', '787', '512'), us('Boston', 'MA', '021', '617'),
  us('Raleigh', 'NC', '276', '919'), us('Chattanooga', 'TN', '374', '423'), us('Atlanta', 'GA', '303', '404'),
  us('Seattle', 'WA', '981', '206'), us('Orlando', 'FL', '328', '407'), us('San Juan', 'PR', '009', '787')];
const FOREIGN_OFFICES = [abroad('LONDON', 'GB', 'SW1A 2AA', '+44 20'), abroad('Toronto', 'CA', 'M5H 2N2', '+1 416'),
  abroad('BRUSSELS', 'BE', '1040', '+32 2'), abroad('Tokyo', 'JP', '100-0005', '+81 3')];

// Upper-cases the first letter after each non-letter: "O'BRIEN L.P." becomes "O'Brien L.P.".
const titleCase = (name: string): string =>
  name.toLowerCase().replace(/(^|\P{L})(\p{L})/gu, (_, before: string, first: string) => before + first.toUpperCase());
const noun = (rng: Rng): string => (rng() < 0.5 ? ` ${pick(rng, NOUNS)}` : '');
const cityGovernment = ({ city, state }: Office): string => `CITY OF ${city.toUpperCase()}, ${state}`;

/** A pattern of the name lists filled in: {P} a prefix, {S} a surname, {C} a city, {T} a state's name. */
function fill(rng: Rng, pattern: string): string {
  return pattern.replace(/\{([PSCT])\}/g, (_, slot: string) =>
    slot === 'P' ? pick(rng, PREFIXES)
    : slot === 'S' ? pick(rng, SURNAMES)
    : slot === 'C' ? pick(rng, US_OFFICES).city.toUpperCase()
    : displayOf(STATE_NAMES, pick(rng, BUSY_STATES)).toUpperCase());
}

function organisationName(rng: Rng): string {
  const roll = rng();
  if (roll < 0.03) return pick(rng, ODD_NAMES);
  const name =
    roll < 0.4 ? `${pick(rng, PREFIXES)} ${pick(rng, INDUSTRIES)}${noun(rng)}${pick(rng, LEGAL_FORMS)}`
    : roll < 0.52 ? `${pick(rng, SURNAMES)} ${pick(rng, INDUSTRIES)}${noun(rng)}${pick(rng, LEGAL_FORMS)}`
    : roll < 0.6 ? fill(rng, pick(rng, BANK_NAMES))
    : roll < 0.66 ? fill(rng, pick(rng, HOSPITAL_NAMES))
    : roll < 0.72 ? fill(rng, pick(rng, SCHOOL_NAMES))
    : roll < 0.84 ? `${pick(rng, ['NATIONAL', 'AMERICAN'])} ASSOCIATION OF ${pick(rng, MEMBERS)}`
    : roll < 0.92 ? cityGovernment(pick(rng, US_OFFICES))
    : `${pick(rng, SURNAMES)} & ${pick(rng, SURNAMES)}, LLP`;
  return rng() < 0.04 ? titleCase(name) : name; // some filers type their name in mixed case
}

function firmName(rng: Rng): string {
  const roll = rng();
  if (roll < 0.15) return organisationName(rng); // organisations that lobby for themselves
  if (roll < 0.35) return `${pick(rng, SURNAMES)} & ${pick(rng, SURNAMES)}${pick(rng, [', LLP', ' LLP', ', PLLC', ''])}`;
  if (roll < 0.45) return `THE ${pick(rng, SURNAMES)} ${pick(rng, ['GROUP', 'COMPANY', 'FIRM'])}${pick(rng, FIRM_FORMS)}`;
  return `${pick(rng, SURNAMES)} ${pick(rng, FIRM_WORDS)}${pick(rng, FIRM_FORMS)}`;
}

function timestamp(rng: Rng): string {
  const month = int(rng, 1, 12);
  const offset = month >= 4 && month <= 10 ? '-04:00' : '-05:00'; // US Eastern, daylight saving or not
  const date = `${int(rng, 2018, 2025)}-${pad(month, 2)}-${pad(int(rng, 1, 28), 2)}`;
  const time = `${pad(int(rng, 0, 23), 2)}:${pad(int(rng, 0, 59), 2)}:${pad(int(rng, 0, 59), 2)}`;
  return `${date}T${time}.${pad(int(rng, 0, 999_999), 6)}${offset}`;
}

const [DAY_MS, FIRST_DAY] = [86_400_000, Date.UTC(1999, 0, 1)];
const DAYS = (Date.UTC(2026, 11, 31) - FIRST_DAY) / DAY_MS + 1;

function effectiveDate(rng: Rng): string | null {
  const roll = rng();
  if (roll < 0.03) return null;
  // Registrations cluster on the first of a month, mostly January: the many equal dates of real data.
  if (roll < 0.45) return `${int(rng, 1999, 2026)}-${rng() < 0.4 ? '01' : pad(int(rng, 1, 12), 2)}-01`;
  return new Date(FIRST_DAY + int(rng, 0, DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
}

/** A client's state and country: mostly US, some abroad (usually without a state), a few undetermined. */
function place(rng: Rng): { state: string | null; country: string } {
  const roll = rng();
  const country = roll < 0.94 ? 'US' : roll < 0.99 ? pick(rng, FOREIGN) : '';
  const stateRoll = rng();
  if (country !== 'US') return { country, state: stateRoll < 0.8 ? null : pick(rng, STATES).value };
  const state = stateRoll < 0.04 ? null : stateRoll < 0.5 ? pick(rng, BUSY_STATES) : pick(rng, STATES).value;
  return { country, state };
}

function nullableBoolean(rng: Rng, pNull: number, pFalse: number): boolean | null {
  const roll = rng();
  return roll < pNull ? null : roll < pNull + pFalse ? false : true;
}

/** The registrant with this index: the same content every time, whichever client asks. */
function registrant(seed: number, index: number): Record<string, unknown> {
  const rng = mulberry32(mix(seed ^ 0x5eed2e9, index));
  // Multiplying by an odd constant permutes the 29-bit integers: unique ids that look scattered. They
  // start above the real registrants' (up to about 401 million), so mixing with real data merges none.
  const id = 600_000_000 + ((Math.imul(index + 1, 0x9e3779b1) ^ seed) & 0x1fffffff);
  const office = rng() < 0.02 ? pick(rng, FOREIGN_OFFICES) : rng() < 0.6 ? WASHINGTON : pick(rng, US_OFFICES);
  const [houseRoll, cityRoll, zipRoll] = [rng(), rng(), rng()];
  const ppbCountry = rng() < 0.97 ? office.country : rng() < 0.5 ? '' : pick(rng, FOREIGN);
  return {
    id,
    url: `${API}/registrants/${id}/?format=api`,
    house_registrant_id: houseRoll < 0.4 ? id : houseRoll < 0.8 ? int(rng, 30_000, 450_000) : null,
    name: firmName(rng),
    description: rng() < 0.15 ? null : pick(rng, REGISTRANT_DESCRIPTIONS),
    address_1: rng() < 0.08 ? `P.O. Box ${int(rng, 100, 9999)}` : `${int(rng, 1, 2999)} ${pick(rng, STREETS)}`,
    address_2: rng() < 0.45 ? null : `${pick(rng, SUITES)}${int(rng, 2, 1200)}`,
    address_3: rng() < 0.04 ? 'Attn: Government Affairs' : null,
    address_4: rng() < 0.005 ? 'c/o Registered Agent' : null,
    city: cityRoll < 0.01 ? null : cityRoll < 0.06 ? office.city.toUpperCase() : office.city,
    state: office.state,
    state_display: stateDisplay(office.state),
    zip: zipRoll < 0.05 ? null
      : office.state === null ? office.zip
      : `${office.zip}${pad(int(rng, 0, 99), 2)}${zipRoll < 0.3 ? `-${pad(int(rng, 0, 9999), 4)}` : ''}`,
    country: office.country,
    country_display: displayOf(COUNTRY_NAMES, office.country),
    ppb_country: ppbCountry,
    ppb_country_display: displayOf(COUNTRY_NAMES, ppbCountry),
    contact_name: rng() < 0.03 ? '' : `${pick(rng, FIRST_NAMES)} ${pick(rng, SURNAMES)}`,
    contact_telephone: rng() < 0.06 ? '' : `${office.dial}-${int(rng, 200, 999)}-${pad(int(rng, 0, 9999), 4)}`,
    dt_updated: timestamp(rng),
  };
}

function checkWhole(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min} up` : `from ${min} to ${max}`;
    throw new TypeError(`Expected \`${name}\` to be a whole number ${range}, got ${value}`);
  }
}

/** Yields `count` client records. Checks the options at once, not at the first `next()`. */
export function fakeClients(options: FakeClientOptions): Generator<Record<string, unknown>> {
  const { count, seed = 1, firstId = 300_000 } = options;
  checkWhole('count', count, 0);
  checkWhole('seed', seed, 0, 0xffffffff);
  checkWhole('firstId', firstId, 1);
  return generate(count, seed, firstId);
}

const RECENT = 1024; // how far back a re-registration may reach, and all the memory it needs

function* generate(count: number, seed: number, firstId: number): Generator<Record<string, unknown>> {
  const rng = mulberry32(mix(seed, 0xc11e));
  const recent: { clientId: number; name: string }[] = [];
  let id = firstId;
  for (let index = 0; index < count; index++) {
    // Real ids are mostly consecutive, with gaps where records were withdrawn.
    if (index > 0) id += rng() < 0.72 ? 1 : rng() < 0.8 ? int(rng, 2, 5) : int(rng, 6, 40);
    // A re-registered client keeps its client number and name: repeated client_ids and names.
    const again = rng() < 0.12 && recent.length > 0 ? pick(rng, recent) : undefined;
    const client = again ?? { clientId: id, name: organisationName(rng) };
    recent[index % RECENT] = client;
    // Registrants join over time (one per six clients) and the early ones win most of the business:
    // squaring a uniform draw favours low indexes, so a few registrants get hundreds of clients.
    const registrantIndex = Math.floor((Math.floor(index / 6) + 1) * rng() ** 2);
    const home = place(rng);
    const ppb = rng() < 0.88 ? home : place(rng);
    yield {
      id,
      url: `${API}/clients/${id}/?format=api`,
      client_id: client.clientId,
      name: client.name,
      general_description: rng() < 0.08 ? null : pick(rng, CLIENT_DESCRIPTIONS),
      client_government_entity: nullableBoolean(rng, 0.55, 0.38),
      client_self_select: nullableBoolean(rng, 0.08, 0.8),
      state: home.state,
      state_display: stateDisplay(home.state),
      country: home.country,
      country_display: displayOf(COUNTRY_NAMES, home.country),
      ppb_state: ppb.state,
      ppb_state_display: stateDisplay(ppb.state),
      ppb_country: ppb.country,
      ppb_country_display: displayOf(COUNTRY_NAMES, ppb.country),
      effective_date: effectiveDate(rng),
      registrant: registrant(seed, registrantIndex),
    };
  }
}
