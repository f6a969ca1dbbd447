import type { AwardCorrectionNote, AwardState } from '../award.js';
import type { PublicMedia } from './vehicles.js';

/** GET /api/award/{year}/me: the voting's state and this browser's own votes. */
export interface AwardMe {
  year: number;
  state: AwardState;
  opensAt: string | null;
  closesAt: string | null;
  /** Whether this browser votes with a confirmed address (a confirmed link or a verified account). */
  confirmed: boolean;
  /** Start numbers this browser's address voted for. */
  votes: number[];
  maxVotes: number;
}

/** The answer to a vote, a take-back and a confirmation. */
export interface AwardVoteResult {
  message: string;
  /** 'counted' once the address is confirmed; 'pending' until the mailed link is used. */
  status: 'counted' | 'pending' | 'withdrawn' | 'confirmed';
  votes: number[];
}

/** POST /api/award/confirm/pending: what the confirm page shows before its button. */
export interface AwardPendingVotes {
  year: number;
  /** The address is confirmed already (the link then only lets this browser vote). */
  confirmed: boolean;
  votes: {
    startNumber: number;
    car: string;
    /** Waiting for the confirmation; otherwise it counts already. */
    pending: boolean;
    /** Cast in the browser that opened the link. */
    thisBrowser: boolean;
  }[];
}

/** One car in the admin's ranking. */
export interface AwardRankingRow {
  rank: number;
  vehicleId: string;
  startNumber: number;
  name: string;
  votes: number;
  pending: number;
  /** The certificate PDF's address, once rendered (first three after closing). */
  certificateUrl: string | null;
}

/** GET /api/admin/award/{year} */
export interface AwardAdminView {
  year: number;
  editionName: string;
  state: AwardState;
  opensAt: string | null;
  closesAt: string | null;
  openedAt: string | null;
  closedAt: string | null;
  ranking: AwardRankingRow[];
  /** Votes that count (confirmed addresses). */
  totalVotes: number;
  /** Votes waiting for their address's confirmation. */
  pendingVotes: number;
  confirmedVoters: number;
  /** Share (0–1) of counted votes whose address was confirmed on a day of the meeting. */
  confirmedOnMeetingDayShare: number;
  /** Counted and pending votes per network (IPv4 /24, IPv6 /48 as shown). */
  networks: { network: string; votes: number; pending: number; voters: number }[];
  /** Whether the ranking is the final one written at closing. */
  final: boolean;
  /** Whether the edition's meeting is over: the voting's moments stay as they were. */
  over: boolean;
  /** The admins' corrections of the final totals, oldest first, with their reasons. */
  corrections: (AwardCorrectionNote & { reason: string })[];
}

/** A voter's own data (the mailed link's 'Meine Stimmen herunterladen'). */
export interface AwardVoterExport {
  email: string;
  edition: number;
  confirmedAt: string | null;
  confirmedVia: string | null;
  createdAt: string;
  /** `counted`: false while the vote waits for its address's confirmation in the browser it was cast in. */
  votes: { startNumber: number; car: string; at: string; counted: boolean }[];
}

/** The look back's block: the first three of the visitors' award. */
export interface AwardLookBack {
  title: string;
  winners: {
    rank: number;
    startNumber: number;
    name: string;
    brand: string;
    model: string;
    votes: number;
    /** The hero image when the car is on the public list. */
    image: PublicMedia | null;
  }[];
  /** Corrections of the final totals by an admin, oldest first (a line each, `awardCorrectionLine`). */
  corrections: AwardCorrectionNote[];
}
