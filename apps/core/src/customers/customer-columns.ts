// CustomerFields (create/update body) -> customer columns. Only fields that
// are present are written, so an update changes exactly what was sent.
import { toJson } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { LicenseTier, Vertical, type CustomerFields } from "@signage/contracts/signage/core/v1/customer_pb";
import { storageSizeOf } from "./customer-rules.js";

export function customerColumns(f: CustomerFields, name: string | undefined): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  const put = (column: string, value: unknown) => {
    if (value !== undefined) cols[column] = value;
  };
  put("name", name);
  put("comment", f.comment);
  put("country", f.country);
  put("location", f.location);
  put("type", f.type);
  put("vertical", f.vertical === undefined ? undefined : Vertical[f.vertical]);
  // JSON null cannot reach a proto3 optional field, so 0 clears the expiration date.
  put("expiration_date", f.expirationDate === undefined ? undefined : f.expirationDate === 0n ? null : new Date(Number(f.expirationDate)));
  put("restricted", f.restricted);
  put("force_2fa", f.force2fa);
  put("needs_to_be_invoiced", f.needsToBeInvoiced);
  put("license_tier", f.licenseTier === undefined ? undefined : LicenseTier[f.licenseTier]);
  put(
    "resource_limits",
    f.resourceLimits === undefined ? undefined : JSON.stringify({ overrides: Object.fromEntries(Object.entries(f.resourceLimits.overrides).map(([k, v]) => [k, Number(v)])) }),
  );
  put("free_licenses", f.freeLicenses === undefined ? undefined : Number(f.freeLicenses));
  put("browser_session_licenses", f.browserSessionLicenses === undefined ? undefined : Number(f.browserSessionLicenses));
  put("device_session_limit", f.deviceSessionLimit === undefined ? undefined : Number(f.deviceSessionLimit));
  put("storage_size", storageSizeOf(f.storageSize));
  put("hidden_ui_element_rules", f.hiddenUiElementRules === undefined ? undefined : JSON.stringify(toJson(ValueSchema, f.hiddenUiElementRules)));
  put("customer_metadata", f.customerMetadata === undefined ? undefined : JSON.stringify(toJson(ValueSchema, f.customerMetadata)));
  return cols;
}
