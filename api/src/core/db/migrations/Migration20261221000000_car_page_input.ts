import { Migration } from '@mikro-orm/migrations';

/**
 * A public input of the cars' pages beyond the public list ('cars'): which confirmed car holds which
 * start number, and the brand and model shown of a car whose owner did not consent to showing it
 * (such a car is not on the list). A place given, given up or renumbered counts as a change, and so
 * does a confirmed car's status, brand or model; a vehicle's other edits, and those of a vehicle that
 * neither is nor becomes confirmed (the applications), do not: the row trigger's condition is
 * checked without calling its function.
 */
export class Migration20261221000000_car_page_input extends Migration {
  override name = 'Migration20261221000000_car_page_input';

  override up(): void | Promise<void> {
    this.addSql(`create sequence "public_input_cars";`);
    this.addSql(
      `create trigger "public_input_cars" after insert or delete or update of released_at, start_number on "invitation" for each statement execute function "public_input_changed"('cars');`,
    );
    this.addSql(
      `create trigger "public_input_cars_truncated" after truncate on "invitation" for each statement execute function "public_input_changed"('cars');`,
    );
    this.addSql(
      `create trigger "public_input_cars_vehicle" after update of status, brand, model on "vehicle" for each row
         when ((old.status = 'confirmed' or new.status = 'confirmed')
               and (old.status, old.brand, old.model) is distinct from (new.status, new.brand, new.model))
         execute function "public_input_changed"('cars');`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "public_input_cars_vehicle" on "vehicle";`);
    this.addSql(`drop trigger if exists "public_input_cars_truncated" on "invitation";`);
    this.addSql(`drop trigger if exists "public_input_cars" on "invitation";`);
    this.addSql(`drop sequence if exists "public_input_cars";`);
  }
}
