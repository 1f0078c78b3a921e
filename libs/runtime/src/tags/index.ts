export { TAG_TYPES, isTagType, type TagType } from "./tag-types.js";
export { TAG_MAX_BYTES, TAG_MAX_LENGTH, tagFormatProblem, isValidTag } from "./tag-format.js";
export {
  TAGS_CHANGED,
  TAGS_RESOURCE_DELETED,
  tagsChangedEvent,
  taggedResourceDeletedEvent,
  enqueueTagsChanged,
  enqueueTaggedResourceDeleted,
  type TagsChangedData,
  type TagsResourceDeletedData,
  type TaggedResourceState,
  type TaggedResourceDeletion,
} from "./tag-events.js";
export type { OutboxPort } from "./outbox-port.js";
