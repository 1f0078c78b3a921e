// customer rows <-> the Customer message.
import { create, fromJson, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { CustomerSchema, LicenseTier, Vertical, type Customer, type TeamAccessSettings } from "@signage/contracts/signage/core/v1/customer_pb";
import type { CustomerComputed, CustomerRow } from "./customer-row.js";

const ms = (d: Date | null) => (d ? BigInt(d.getTime()) : undefined);
const big = (n: number | null) => (n === null || n === undefined ? undefined : BigInt(n));
const json = (v: JsonValue | null) => (v === null || v === undefined ? undefined : fromJson(ValueSchema, v));

export function enumFromName<E extends Record<string, string | number>>(e: E, name: string | null): number | undefined {
  if (!name) return undefined;
  const n = e[name as keyof E];
  return typeof n === "number" ? n : undefined;
}

export function teamAccessSettingsOf(row: CustomerRow): TeamAccessSettings {
  return {
    $typeName: "signage.core.v1.TeamAccessSettings",
    userFullAccessIfNotInTeam: row.user_full_access_if_not_in_team,
    accessResourcesWithoutTeam: row.access_resources_without_team,
    isDeviceAndGroupCreationEnabledInRootForTeamUsers: row.device_creation_in_root_for_team_users,
    isContentAndGroupCreationEnabledInRootForTeamUsers: row.content_creation_in_root_for_team_users,
    isFileAndFolderCreationEnabledInRootForTeamUsers: row.file_creation_in_root_for_team_users,
  };
}

export function customerToMessage(row: CustomerRow & CustomerComputed): Customer {
  return create(CustomerSchema, {
    id: BigInt(row.id),
    name: row.name,
    comment: row.comment ?? undefined,
    country: row.country ?? undefined,
    location: row.location ?? undefined,
    type: row.type ?? undefined,
    vertical: enumFromName(Vertical, row.vertical),
    createdDate: ms(row.created_date),
    expirationDate: ms(row.expiration_date),
    restricted: row.restricted,
    force2fa: row.force_2fa,
    needsToBeInvoiced: row.needs_to_be_invoiced,
    licenseTier: enumFromName(LicenseTier, row.license_tier),
    resourceLimits: row.resource_limits
      ? { overrides: Object.fromEntries(Object.entries(row.resource_limits.overrides ?? {}).map(([k, v]) => [k, BigInt(v)])) }
      : undefined,
    freeLicenses: big(row.free_licenses),
    browserSessionLicenses: big(row.browser_session_licenses),
    deviceSessionLimit: big(row.device_session_limit),
    // Devices and license orders live in services not built yet: no devices, no approved orders.
    activeLicenses: 0n,
    totalLicenses: 0n,
    storageSize: big(row.storage_size),
    ownerSubresellerId: big(row.owner_subreseller_id),
    ownerSubresellerName: row.owner_subreseller_name ?? undefined,
    subreseller: row.subreseller_since ? { id: BigInt(row.id), ownedCustomerCount: BigInt(row.owned_customer_count ?? 0) } : undefined,
    hiddenUiElementRules: json(row.hidden_ui_element_rules),
    customerMetadata: json(row.customer_metadata),
    teamAccessSettings: teamAccessSettingsOf(row),
    defaultEmergencyContentId: row.default_emergency_content_id ?? undefined,
  });
}
