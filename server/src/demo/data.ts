import { DEFAULT_VARIETIES } from '@pecan/contract';

/** The demo data set of the contract: three handlers, four users, three seasons of filings. */
export const DEMO_PASSWORD = 'demo-pecans-2026';
/**
 * The demo `staff` user's authenticator key (base32, RFC 6238): staff sign in with a second factor, so the demo
 * documents its key (README, the sign-in page's demo box) for anyone to add to an authenticator app.
 */
export const DEMO_STAFF_TOTP_SECRET = 'PECANSTAFFDEMOKEY234567ABCDEFGHI';

export interface DemoHandler {
  number: string;
  name: string;
  directory: boolean;
  address: string;
  phone: string;
  email: string;
  website: string;
  /** Scales the handler's volumes, so the three are not alike. */
  size: number;
  /** Whether it receives substandard pecans: only two do, so that figure is withheld in industry reports. */
  substandard: boolean;
  varieties: string[];
}

export const DEMO_HANDLERS: DemoHandler[] = [
  {
    number: '101',
    name: 'Riverbend Pecan Co.',
    directory: true,
    address: '4100 River Road\nAlbany, GA 31705',
    phone: '+1 229 555 0101',
    email: 'office@riverbend-pecan.example',
    website: 'https://riverbend-pecan.example',
    size: 1.0,
    substandard: true,
    varieties: ['Desirable', 'Stuart', 'Pawnee', 'Elliot'],
  },
  {
    number: '102',
    name: 'Mesa Valley Pecans',
    directory: true,
    address: '220 Mesa Valley Drive\nLas Cruces, NM 88005',
    phone: '+1 575 555 0102',
    email: 'hello@mesavalley.example',
    website: 'https://mesavalley.example',
    size: 1.6,
    substandard: true,
    varieties: ['Western Schley', 'Wichita', 'Pawnee'],
  },
  {
    number: '103',
    name: 'Gulf Coast Shellers',
    directory: false,
    address: '9 Harbor Street\nMobile, AL 36602',
    phone: '+1 251 555 0103',
    email: 'contact@gulfcoastshellers.example',
    website: 'https://gulfcoastshellers.example',
    size: 0.7,
    substandard: false,
    varieties: ['Cape Fear', 'Desirable', 'Sumner'],
  },
];

export interface DemoUser {
  username: string;
  firstName: string;
  lastName: string;
  handler: string | null;
  directory: boolean;
  jobTitle: string;
  description: string;
}

export const DEMO_USERS: DemoUser[] = [
  {
    username: 'alice',
    firstName: 'Alice',
    lastName: 'Moreno',
    handler: '101',
    directory: true,
    jobTitle: 'Office Manager',
    description: 'Riverbend Pecan Co., handler 101',
  },
  {
    username: 'bob',
    firstName: 'Bob',
    lastName: 'Tran',
    handler: '101',
    directory: false,
    jobTitle: 'Bookkeeper',
    description: 'Riverbend Pecan Co., not in the directory',
  },
  {
    username: 'carol',
    firstName: 'Carol',
    lastName: 'Jensen',
    handler: '102',
    directory: true,
    jobTitle: 'Compliance Lead',
    description: 'Mesa Valley Pecans, handler 102',
  },
  {
    username: 'staff',
    firstName: 'Sam',
    lastName: 'Council',
    handler: null,
    directory: false,
    jobTitle: 'Reporting Officer',
    description: 'council staff',
  },
];

export const DEMO_VARIETIES = DEFAULT_VARIETIES;

/** A small deterministic generator, so the demo is the same on every machine. */
export function seededRandom(seed: string): () => number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h += 0x6d2b79f5;
    let t = h;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Harvest runs October to January: most receipts fall then. Index 0 is September. */
export const HARVEST_WEIGHT = [0.05, 0.6, 1.0, 0.9, 0.5, 0.2, 0.05, 0, 0, 0, 0, 0];
