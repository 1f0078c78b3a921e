export { ENTITY_TYPE_RULES, FILTERED_ENTITY_TYPES, isFilteredEntityType, type FilteredEntityTypeName, type EntityTypeRules, type CriterionKind } from "./entity-types.js";
export { coreQuickFilters, quickFilterNotApplied, unknownQuickFilter, type QuickFilterResolver, type QuickFilterUse } from "./resolver.js";
export {
  QUICK_FILTER_USAGE_CHANGED,
  QUICK_FILTER_USER_TYPES,
  quickFilterUsageEvent,
  enqueueQuickFilterUsage,
  type QuickFilterUsage,
  type QuickFilterUsageChangedData,
  type QuickFilterUserType,
} from "./usage-events.js";
