import { Migration } from '@mikro-orm/migrations';

/** The default score categories of an edition (name, weight), each scored 0–10. */
export const DEFAULT_REVIEW_CATEGORIES: ReadonlyArray<readonly [string, number]> = [
  ['Umbauqualität', 2],
  ['Originalität', 1],
  ['Gesamteindruck', 1],
];

/**
 * Review at scale: each edition names how many reviewers look at an application and its score
 * categories with weights; each submitted application gets that many reviewers (an assignment,
 * which holds that reviewer's scores once submitted); a reviewer declares the people they are
 * biased towards ('Befangenheit'), who are never assigned to them. The status log may hold a review.
 */
export class Migration20261206000000_review_assignments extends Migration {
  override name = 'Migration20261206000000_review_assignments';

  override up(): void | Promise<void> {
    this.addSql(`alter table "edition" add column "reviewers_per_application" int not null default 2;`);
    this.addSql(`create table "review_category" (
      "id" uuid not null primary key,
      "edition_id" uuid not null references "edition" ("id") on delete cascade,
      "name" varchar(60) not null,
      "weight" int not null check ("weight" between 1 and 10),
      "position" int not null,
      "created_at" timestamptz not null default now(),
      unique ("edition_id", "name"));`);
    const defaults = DEFAULT_REVIEW_CATEGORIES.map(
      ([name, weight], position) => `('${name}', ${weight}, ${position})`,
    ).join(', ');
    this.addSql(`insert into "review_category" ("id", "edition_id", "name", "weight", "position")
      select gen_random_uuid(), e."id", d."name", d."weight", d."position"
        from "edition" e cross join (values ${defaults}) as d("name", "weight", "position");`);
    this.addSql(`create table "review_assignment" (
      "id" uuid not null primary key,
      "edition_id" uuid not null references "edition" ("id") on delete cascade,
      "vehicle_id" uuid not null references "vehicle" ("id") on delete cascade,
      "reviewer_id" uuid null references "users" ("id") on delete set null,
      "assigned_by" uuid null,
      "assigned_at" timestamptz not null,
      "scores" jsonb null,
      "total" numeric(6, 3) null,
      "comment" text null,
      "submitted_at" timestamptz null,
      unique ("vehicle_id", "reviewer_id"));`);
    this.addSql(
      `create index "review_assignment_reviewer_index" on "review_assignment" ("reviewer_id", "edition_id");`,
    );
    this.addSql(`create index "review_assignment_edition_index" on "review_assignment" ("edition_id");`);
    this.addSql(`create table "review_conflict" (
      "id" uuid not null primary key,
      "reviewer_id" uuid not null references "users" ("id") on delete cascade,
      "person_id" uuid not null references "users" ("id") on delete cascade,
      "created_at" timestamptz not null default now(),
      unique ("reviewer_id", "person_id"));`);
    this.addSql(`create index "review_conflict_person_index" on "review_conflict" ("person_id");`);
    this.addSql(`alter table "review" drop constraint "review_kind_check";`);
    this.addSql(
      `alter table "review" add constraint "review_kind_check" check ("kind" in ('status', 'consent_withdrawn', 'review'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "review" drop constraint "review_kind_check";`);
    this.addSql(
      `alter table "review" add constraint "review_kind_check" check ("kind" in ('status', 'consent_withdrawn'));`,
    );
    this.addSql(`drop table if exists "review_conflict";`);
    this.addSql(`drop table if exists "review_assignment";`);
    this.addSql(`drop table if exists "review_category";`);
    this.addSql(`alter table "edition" drop column "reviewers_per_application";`);
  }
}
