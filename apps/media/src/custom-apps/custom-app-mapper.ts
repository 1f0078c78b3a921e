// custom_app rows -> the CustomApp message (enums by their short names). Its
// appRootPath, entryPoint, iconPath are still blob keys here: the service turns
// them into served URLs (app-file-urls.ts).
import { create } from "@bufbuild/protobuf";
import {
  CustomAppOwnershipType,
  CustomAppSchema,
  CustomAppType,
  CustomAppWidgetCategory,
  type CustomApp,
} from "@signage/contracts/signage/media/v1/custom_app_pb";
import type { CustomAppRow } from "./custom-app-row.js";

export const TYPE_BY_NAME = { WIDGET: CustomAppType.WIDGET, HTML_BUNDLE: CustomAppType.HTML_BUNDLE } as const;
export const CATEGORY_BY_NAME: Record<string, CustomAppWidgetCategory> = {
  CUSTOM_APPS: CustomAppWidgetCategory.CUSTOM_APPS,
  BASIC: CustomAppWidgetCategory.BASIC,
  MEDIA: CustomAppWidgetCategory.MEDIA,
  CHARTS: CustomAppWidgetCategory.CHARTS,
  INTERACTIONS: CustomAppWidgetCategory.INTERACTIONS,
};
export const OWNERSHIP_BY_NAME: Record<string, CustomAppOwnershipType> = {
  PLATFORM: CustomAppOwnershipType.PLATFORM,
  CUSTOMER: CustomAppOwnershipType.CUSTOMER,
};

/** The stored name of an enum value (`CUSTOM_APP_TYPE_WIDGET` -> `WIDGET`). */
export function nameOf<V extends number>(byName: Record<string, V>, value: V): string | undefined {
  return Object.entries(byName).find(([, v]) => v === value)?.[0];
}

const orUndefined = <T>(v: T | null): T | undefined => (v === null ? undefined : v);

export function customAppToMessage(row: CustomAppRow): CustomApp {
  return create(CustomAppSchema, {
    id: BigInt(row.id),
    name: row.name,
    appId: orUndefined(row.app_id),
    description: orUndefined(row.description),
    enabled: row.enabled,
    version: orUndefined(row.version),
    ownershipType: OWNERSHIP_BY_NAME[row.ownership_type],
    customerId: BigInt(row.customer_id),
    sizeBytes: row.size_bytes === null ? undefined : BigInt(row.size_bytes),
    lastUpdated: BigInt(row.last_updated.getTime()),
    type: TYPE_BY_NAME[row.type],
    widgetCategory: CATEGORY_BY_NAME[row.widget_category],
    appRootPath: orUndefined(row.app_root_path),
    entryPoint: orUndefined(row.entry_point),
    iconPath: orUndefined(row.icon_path),
    config: orUndefined(row.config),
    resourceList: row.resource_list ?? [],
  });
}
