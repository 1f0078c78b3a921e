// `user.access.changed` carries the user's role and the moment its facts were read (`asOf`), and a
// role change publishes it too. Services other than core used to trust an access token until it
// expired; with these facts their replica (libs/runtime replica-current-user.ts) refuses a deleted
// user's token, and one issued before a role or customer change, once the event arrives. Every
// existing user is announced once, so replicas learn the roles they hold.
import type { Knex } from "knex";

const accessFunction = (withRole: boolean) => `
  CREATE OR REPLACE FUNCTION team_outbox_user_access() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'DELETE' THEN
      DELETE FROM team_assignment WHERE resource_id = OLD.id;
      INSERT INTO event_outbox (event_id, type, customer_id, data) VALUES (gen_random_uuid()::text, 'user.access.changed', OLD.customer_id,
        json_build_object('userId', OLD.id, 'customerId', OLD.customer_id, 'restricted', OLD.restricted, 'deleted', true${withRole ? ", 'role', OLD.role, 'asOf', clock_timestamp()" : ""}));
      RETURN OLD;
    END IF;
    INSERT INTO event_outbox (event_id, type, customer_id, data) VALUES (gen_random_uuid()::text, 'user.access.changed', NEW.customer_id,
      json_build_object('userId', NEW.id, 'customerId', NEW.customer_id, 'restricted', NEW.restricted, 'deleted', false${withRole ? ", 'role', NEW.role, 'asOf', clock_timestamp()" : ""}));
    RETURN NEW;
  END $$`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(accessFunction(true));
  await knex.raw("DROP TRIGGER app_user_team_access_update ON app_user");
  await knex.raw(`CREATE TRIGGER app_user_team_access_update AFTER UPDATE OF restricted, customer_id, role ON app_user FOR EACH ROW
    WHEN (OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.customer_id IS DISTINCT FROM NEW.customer_id OR OLD.role IS DISTINCT FROM NEW.role)
    EXECUTE FUNCTION team_outbox_user_access()`);
  // True as of now: a token issued before with other facts predates a change.
  await knex.raw(`
    INSERT INTO event_outbox (event_id, type, customer_id, data)
    SELECT gen_random_uuid()::text, 'user.access.changed', customer_id,
           json_build_object('userId', id, 'customerId', customer_id, 'restricted', restricted, 'deleted', false, 'role', role, 'asOf', clock_timestamp())
      FROM app_user`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(accessFunction(false));
  await knex.raw("DROP TRIGGER app_user_team_access_update ON app_user");
  await knex.raw(`CREATE TRIGGER app_user_team_access_update AFTER UPDATE OF restricted, customer_id ON app_user FOR EACH ROW
    WHEN (OLD.restricted IS DISTINCT FROM NEW.restricted OR OLD.customer_id IS DISTINCT FROM NEW.customer_id) EXECUTE FUNCTION team_outbox_user_access()`);
}
