// "Creating a customer auto-creates a root deviceGroup, root fileFolder and a
// content folder named Templates." Core owns device and content folders; the
// root file folder is media's, created from the `customer.created` event.
import type { Knex } from "knex";
import type { IdGenerator } from "@signage/db";

export async function createCustomerRoots(trx: Knex.Transaction, customerId: number, newId: IdGenerator): Promise<void> {
  const deviceRoot = newId();
  await trx("device_group").insert({ id: deviceRoot, customer_id: customerId, name: null, parent_id: null, path: [deviceRoot] });
  const contentRoot = newId();
  await trx("content_group").insert({ id: contentRoot, customer_id: customerId, name: null, parent_id: null, path: [contentRoot] });
  const templates = newId();
  await trx("content_group").insert({
    id: templates,
    customer_id: customerId,
    name: "Templates",
    parent_id: contentRoot,
    path: [contentRoot, templates],
    is_template_group: true,
  });
}
