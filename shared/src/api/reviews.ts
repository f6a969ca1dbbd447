import type { ReviewCategory, ReviewConflictKind } from '../reviews.js';
import type { VehicleStatus } from '../status.js';

/** An application's score: the mean of the submitted reviews' weighted scores, with their spread. */
export interface ApplicationScore {
  /** null until a review is submitted. */
  mean: number | null;
  /** The lowest and the highest review. */
  min: number | null;
  max: number | null;
  submitted: number;
  /** Reviewers assigned (submitted or not). */
  assigned: number;
}

/** One assigned reviewer's review as the detail dialog shows it. */
export interface ReviewView {
  reviewerId: string | null;
  /** Full name, else email; 'Gelöschtes Konto' once gone. */
  reviewerName: string;
  mine: boolean;
  assignedAt: string;
  submittedAt: string | null;
  /** Per category id; null while not submitted, or hidden from a reviewer who has not submitted their own. */
  scores: Record<string, number> | null;
  total: number | null;
  comment: string | null;
}

/**
 * GET /api/admin/vehicles/{id}/review: the categories, the reviews and the score. A reviewer (any
 * staff member but an admin) who has not submitted their own review of it sees who reviews and
 * whether they submitted, but no other score, comment or mean (`hidden`).
 */
export interface VehicleReview {
  vehicleId: string;
  status: VehicleStatus;
  categories: ReviewCategory[];
  reviews: ReviewView[];
  score: ApplicationScore;
  hidden: boolean;
  /** The caller's own assignment, if any. */
  mine: { submitted: boolean } | null;
  /** Admins may move an open review to one of these (reviewers neither owner nor biased nor assigned). */
  candidates: Array<{ id: string; name: string; open: number }>;
}

/** One application on a reviewer's 'Meine Prüfungen'. */
export interface MyReviewItem {
  vehicleId: string;
  title: string;
  ownerName: string;
  status: VehicleStatus;
  assignedAt: string;
  submittedAt: string | null;
  /** My weighted score once submitted. */
  total: number | null;
}

/** GET /api/admin/reviews/mine: open first (oldest assignment first), then the submitted ones. */
export interface MyReviews {
  open: MyReviewItem[];
  done: MyReviewItem[];
  /** The next application to review: the oldest open assignment. */
  next: string | null;
}

/** GET /api/admin/reviews/settings */
export interface ReviewSettings {
  reviewersPerApplication: number;
  categories: ReviewCategory[];
  /** Whether a review was submitted: categories are then fixed (rename and reweigh only). */
  categoriesFixed: boolean;
}

/** GET /api/admin/reviews/load: the open and submitted reviews per reviewer of an edition. */
export interface ReviewLoad {
  reviewers: Array<{
    id: string;
    name: string;
    email: string;
    open: number;
    submitted: number;
    conflicts: number;
  }>;
  /** Applications in review with fewer reviewers than configured (no eligible reviewer left). */
  understaffed: number;
  inReview: number;
  /** Those applications ('unterbesetzt'), oldest first, at most 200. */
  understaffedApplications: Array<{
    vehicleId: string;
    title: string;
    ownerName: string;
    status: VehicleStatus;
    /** Reviewers on it (submitted or not), fewer than `perApplication`. */
    assigned: number;
  }>;
  perApplication: number;
}

/**
 * The body of a 403 for a staff act on an application the staff member owns (`own`) or whose owner
 * they declared a bias towards (`bias`); for admins the message says whether another admin decides.
 */
export interface ReviewConflictRefusal {
  message: string;
  conflict: ReviewConflictKind;
  /** For admins: whether another admin (neither owner nor biased) may decide; null for reviewers. */
  otherAdmin: boolean | null;
}

/** GET /api/admin/reviews/conflicts: the people the signed-in reviewer declared bias towards. */
export interface ReviewConflictList {
  people: Array<{ id: string; name: string; email: string; since: string }>;
}

/** What a balancing run changed. */
export interface ReviewBalance {
  added: number;
  removed: number;
  moved: number;
}
