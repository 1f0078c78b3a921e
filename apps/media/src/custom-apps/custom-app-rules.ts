// Rules of document 1 for creating and updating private apps, checked before
// anything is written.
import type { CreateMyAppFields, UpdateMyAppFields } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { CustomAppType } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { CATEGORY_BY_NAME, nameOf, OWNERSHIP_BY_NAME, TYPE_BY_NAME } from "./custom-app-mapper.js";
import type { CustomAppRow } from "./custom-app-row.js";
import { immutableField, invalidText, invalidValue, nameRequired, notPackaged } from "./custom-app-errors.js";

/** PostgreSQL text cannot hold U+0000: such a value is refused as invalid (400), never a 500. */
function checkStorableText(field: "name" | "description", value: string): string {
  if (value.includes("\u0000")) throw invalidText(field);
  return value;
}

/** "name (req, non-empty)"; "Private app name blank or invalid -> HTTP 400": at most 255 characters, as folder and customer names. */
export function checkName(name: string | undefined): string {
  const trimmed = name?.trim() ?? "";
  if (trimmed.length === 0) throw nameRequired();
  if (trimmed.length > MAX_NAME_LENGTH) throw invalidValue("name", `at most ${MAX_NAME_LENGTH} characters (got ${trimmed.length})`);
  return checkStorableText("name", trimmed);
}

const MAX_NAME_LENGTH = 255;

/** An enum number the contract does not define (gRPC callers send numbers) is refused, never replaced by the default. */
function checkEnum(field: "type" | "widgetCategory" | "ownershipType", byName: Record<string, number>, value: number | undefined): void {
  if (value !== undefined && value !== 0 && nameOf(byName, value) === undefined) throw invalidValue(field, `${value} is not a defined value`);
}

function checkDescription(description: string | undefined): string | null {
  return description === undefined ? null : checkStorableText("description", description);
}

/** Created disabled, private, repository updates off, no package; type WIDGET and category CUSTOM_APPS by default. */
export function createColumns(customerId: number, fields: CreateMyAppFields | undefined): Record<string, unknown> {
  checkEnum("type", TYPE_BY_NAME, fields?.type);
  checkEnum("widgetCategory", CATEGORY_BY_NAME, fields?.widgetCategory);
  const type = fields?.type || CustomAppType.WIDGET;
  return {
    customer_id: customerId,
    name: checkName(fields?.name),
    description: checkDescription(fields?.description),
    type: nameOf(TYPE_BY_NAME, type),
    widget_category: (fields?.widgetCategory && nameOf(CATEGORY_BY_NAME, fields.widgetCategory)) || "CUSTOM_APPS",
    ownership_type: "CUSTOMER",
    enabled: false,
    repository_updates: false,
  };
}

/**
 * "Updates cannot change ownership, app type or repository-update settings, and
 * cannot move an app to another customer": those fields are accepted only when
 * they repeat the current value. Enabling needs a package (state "packaged").
 */
export function updateColumns(row: CustomAppRow, fields: UpdateMyAppFields | undefined): Record<string, unknown> {
  if (!fields) return {};
  checkEnum("type", TYPE_BY_NAME, fields.type);
  checkEnum("widgetCategory", CATEGORY_BY_NAME, fields.widgetCategory);
  checkEnum("ownershipType", OWNERSHIP_BY_NAME, fields.ownershipType);
  if (fields.type !== undefined && nameOf(TYPE_BY_NAME, fields.type) !== row.type) throw immutableField("type");
  if (fields.ownershipType !== undefined && nameOf(OWNERSHIP_BY_NAME, fields.ownershipType) !== row.ownership_type) throw immutableField("ownershipType");
  if (fields.customerId !== undefined && Number(fields.customerId) !== Number(row.customer_id)) throw immutableField("customerId");
  const columns: Record<string, unknown> = {};
  if (fields.name !== undefined) columns.name = checkName(fields.name);
  if (fields.description !== undefined) columns.description = checkDescription(fields.description);
  if (fields.widgetCategory !== undefined && fields.widgetCategory !== 0) columns.widget_category = nameOf(CATEGORY_BY_NAME, fields.widgetCategory);
  if (fields.enabled !== undefined) {
    if (fields.enabled && !row.package_key) throw notPackaged(Number(row.id));
    columns.enabled = fields.enabled;
  }
  return columns;
}
